"""Report formats of ``arbiter check``: text for people; json, jsonl, junit and github for machines.

A format renders result records (``ScenarioResult.model_dump(mode="json")`` plus
``hash``) given in a stable order. Timing (``seconds``) is left out of machine
formats unless asked for, so a report is byte-identical however it was computed.
"""
from __future__ import annotations

import json
import re
from collections.abc import Iterable
from xml.sax.saxutils import escape, quoteattr

from models.results import BatchSummary, ScenarioResult, ScenarioStatus

FORMATS = ("text", "json", "jsonl", "junit", "github")
#: Formats whose report is written scenario by scenario (the others are written at the end).
STREAMING = ("text", "jsonl", "github")

_MARK = {"pass": "PASS", "fail": "FAIL", "error": "ERROR", "unknown": "UNKNOWN"}

#: characters a terminal or log viewer may act on: C0/C1 controls, DEL, line/paragraph separators, bidi
#: overrides and isolates, and lone surrogates (bytes of a file name that were not UTF-8)
_INVISIBLE = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029\u200e\u200f\u202a-\u202e\u2066-\u2069"
                        "\ud800-\udfff]")
#: characters XML 1.0 does not allow in a document (even escaped as character references)
_NOT_XML = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")
_SURROGATE = re.compile("[\ud800-\udfff]")


def _escape_char(m: re.Match) -> str:
    """A character as Python writes it in a string literal: \\x1b, \\u202e, \\udcff."""
    c = m.group()
    return f"\\x{ord(c):02x}" if ord(c) < 0x100 else f"\\u{ord(c):04x}"


def visible(text: str) -> str:
    """Text with every control character made visible as an escape (a scenario cannot drive a terminal)."""
    return _INVISIBLE.sub(_escape_char, text)


def xml_safe(text: str) -> str:
    """Text with the characters XML 1.0 forbids replaced by visible escapes (\\x01, \\ufffe)."""
    return _NOT_XML.sub(_escape_char, text)


def _json_safe(text: str) -> str:
    """JSON text without lone surrogates (which no UTF-8 stream can carry): written as visible escapes."""
    return _SURROGATE.sub(lambda m: "\\" + _escape_char(m), text)  # inside a JSON string: an escaped backslash


def summarize(records: Iterable[dict]) -> BatchSummary:
    """Counts of a batch."""
    s = BatchSummary()
    for r in records:
        s.add(ScenarioStatus(r["status"]))
    return s


def summary_line(s: BatchSummary) -> str:
    """'N passed, N failed, ...' as the text report ends."""
    return f"{s.passed} passed, {s.failed} failed, {s.errors} errors, {s.unknown} unknown, {s.total} total"


def public(record: dict, timings: bool = False) -> dict:
    """A record as machine formats show it: without timing unless ``timings``."""
    return record if timings else {k: v for k, v in record.items() if k != "seconds"}


def render_text(res: ScenarioResult) -> str:
    """A person-readable report of one scenario."""
    mark = _MARK[res.status.value]
    lines = [f"{mark:7} {res.path}" + (f"  [{res.id}]" if res.id else "")]
    if res.error:
        lines += [f"        {part}" for part in res.error.split("\n")]  # one line per error of the file
    for e in res.expectations:
        if not e.passed or res.status is not ScenarioStatus.PASS or e.rules:  # with --why every verdict's rules
            where = f"{res.path}:{e.line}" if e.line else res.path
            ok = "ok " if e.passed else "BAD"
            lines.append(f"   {ok} {where}: {e.description}: {e.verdict.value} (expected {e.expected})"
                         + (f" -- {e.message}" if e.message and not e.passed else ""))
            if e.rules:
                lines.append(f"        decided by: {', '.join(e.decided_by) or '-'}; "
                             f"also needed: {', '.join(e.also_needed) or '-'}")
    for c in res.claims:
        if not c.passed:
            lines.append(f"   BAD {res.path}:{c.line}: {c.kind} {c.player}: {c.verdict} (expected {c.expected}) {c.message}")
            lines += _decided(c)
    if res.status is not ScenarioStatus.PASS:
        for p in res.proofs:
            lines.append(f"   proof at event {p.event}: {p.kind} of {p.player}: {p.verdict}")
            lines += _decided(p)
    if res.contradiction and res.status is not ScenarioStatus.PASS:
        lines.append(f"        no legal outcome; core: {', '.join(res.contradiction)}")
    if res.status is not ScenarioStatus.PASS or any(e.rules for e in res.expectations):
        lines += [f"        open order: {note}" for note in res.open_orders]
    return "\n".join(visible(line) for line in lines)


#: the most lines of a refutation's line of play the text report shows (``arbiter explain`` shows them all)
PLAY_LINES = 8


def _decided(r) -> list[str]:
    """How a proof or a claim was decided, and a refutation's line of play (its first lines)."""
    out = [f"        decided by: {r.decided_by}"] if r.decided_by else []
    if r.verdict == "refuted" and r.counterexample:
        out += [f"          {x}" for x in r.counterexample[:PLAY_LINES]]
        if len(r.counterexample) > PLAY_LINES:
            out.append(f"          ... ({len(r.counterexample) - PLAY_LINES} more line(s): arbiter explain)")
    return out


def failures(res: ScenarioResult) -> list[tuple[int | None, str, str]]:
    """(line, title, message) of everything that went wrong in one scenario."""
    out: list[tuple[int | None, str, str]] = []
    for line in (res.error or "").splitlines():  # every error of the file, each at its own line
        out.append((_error_line(line, res.path), res.status.value, line))
    for e in res.expectations:
        if not e.passed:
            msg = f"{e.description}: {e.verdict.value} (expected {e.expected})" + (f" -- {e.message}" if e.message else "")
            out.append((e.line, "expectation failed", msg))
    for c in res.claims:
        if not c.passed:
            out.append((c.line, "claim failed", f"{c.kind} {c.player}: {c.verdict} (expected {c.expected}) {c.message}".strip()))
    if not out and res.status is not ScenarioStatus.PASS:
        out.append((None, res.status.value, f"scenario {res.status.value}"))
    return out


#: a message that starts where it is: 'cards/<game>/x.yaml:3:5: ...' (or 'x.yaml: ...' for a whole file)
_PLACE = re.compile(r"^(.+?\.ya?ml)(?::(\d+))?(?::\d+)?: ")


def place(message: str, path: str, line: int | None) -> tuple[str, int | None]:
    """The file and line a problem of scenario ``path`` is at: the scenario's (``line``), or the other file its
    message starts with (a card file's error)."""
    if message.startswith(path + ":"):
        return path, line
    m = _PLACE.match(message)
    if m is None:
        return path, line
    return m.group(1), int(m.group(2)) if m.group(2) else None


def _error_line(message: str, path: str) -> int | None:
    """The line of a 'path:line:col: ...' message, if it has one."""
    rest = message[len(path) + 1:] if message.startswith(path + ":") else ""
    head = rest.split(":", 1)[0]
    return int(head) if head.isdigit() else None


class Format:
    """Renders a batch: ``item`` per scenario as it comes (in order), ``end`` once with all records."""

    def __init__(self, timings: bool = False) -> None:
        self.timings = timings

    def item(self, record: dict) -> str:
        """Text for one scenario ('' for none)."""
        return ""

    def end(self, records: list[dict]) -> str:
        """Text after the last scenario."""
        return ""


class TextFormat(Format):
    """For a person: one block per scenario, then the counts."""

    def item(self, record: dict) -> str:
        """The scenario's status and what went wrong."""
        return render_text(_result(record)) + "\n"

    def end(self, records: list[dict]) -> str:
        """The counts."""
        return "\n" + summary_line(summarize(records)) + "\n"


class JsonFormat(Format):
    """One JSON document: summary counts and every scenario."""

    def end(self, records: list[dict]) -> str:
        """The whole document."""
        doc = {"summary": summarize(records).model_dump(), "scenarios": [public(r, self.timings) for r in records]}
        return _json_safe(json.dumps(doc, indent=2, ensure_ascii=False)) + "\n"


class JsonlFormat(Format):
    """One JSON object per line, one line per scenario."""

    def item(self, record: dict) -> str:
        """The scenario's line."""
        return jsonl_line(public(record, self.timings))


class JunitFormat(Format):
    """JUnit XML for CI dashboards: a test case per scenario; fail -> failure, error/unknown -> error."""

    def end(self, records: list[dict]) -> str:
        """The whole XML document."""
        s = summarize(records)
        cases = [self._case(_result(r)) for r in records]
        head = (f'<testsuite name="arbiter" tests="{s.total}" failures="{s.failed}" '
                f'errors="{s.errors + s.unknown}" skipped="0">')
        return "\n".join(['<?xml version="1.0" encoding="UTF-8"?>', "<testsuites>", head, *cases,
                          "</testsuite>", "</testsuites>"]) + "\n"

    def _case(self, res: ScenarioResult) -> str:
        name = _xml_attr(res.id or res.path)
        attrs = f'classname={_xml_attr(res.game or "arbiter")} name={name} file={_xml_attr(res.path)}'
        if self.timings:
            attrs += f' time="{res.seconds:.4f}"'
        probs = failures(res)
        line = next((ln for ln, _, _ in probs if ln), None)
        if line:
            attrs += f' line="{line}"'
        if res.status is ScenarioStatus.PASS:
            return f"<testcase {attrs}/>"
        tag = "failure" if res.status is ScenarioStatus.FAIL else "error"
        text = "\n".join(f"{res.path}:{ln}: {msg}" if ln else msg for ln, _, msg in probs)
        return (f"<testcase {attrs}><{tag} type={_xml_attr(res.status.value)} message={_xml_attr(probs[0][2])}>"
                f"{escape(xml_safe(text))}</{tag}></testcase>")


class GithubFormat(Format):
    """GitHub Actions workflow commands: an ::error annotation at the scenario file and line of each problem."""

    def item(self, record: dict) -> str:
        """Annotations for one scenario (none when it passes)."""
        res = _result(record)
        out = []
        for line, title, msg in failures(res):
            file, line = place(msg, res.path, line)
            props = f"file={_gh_prop(file)}" + (f",line={line}" if line else "")
            props += f",title={_gh_prop(f'arbiter {title}: {res.id or res.path}')}"
            out.append(f"::error {props}::{_gh_data(msg)}\n")
        return "".join(out)

    def end(self, records: list[dict]) -> str:
        """The counts, as a plain log line."""
        return summary_line(summarize(records)) + "\n"


def jsonl_line(record: dict) -> str:
    """A record as one JSON line."""
    return _json_safe(json.dumps(record, ensure_ascii=False, separators=(",", ":"))) + "\n"


def _xml_attr(s: str) -> str:
    return quoteattr(xml_safe(s))


def _gh_data(s: str) -> str:
    return visible(s.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A"))


def _gh_prop(s: str) -> str:
    return _gh_data(s).replace(":", "%3A").replace(",", "%2C")


def _result(record: dict) -> ScenarioResult:
    return ScenarioResult.model_validate({k: v for k, v in record.items() if k != "hash"})


def formatter(name: str, timings: bool = False) -> Format:
    """The renderer of a format name."""
    cls = {"text": TextFormat, "json": JsonFormat, "jsonl": JsonlFormat, "junit": JunitFormat,
           "github": GithubFormat}[name]
    return cls(timings)
