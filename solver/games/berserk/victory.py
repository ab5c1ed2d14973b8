"""Berserk clean victory (seed 002, 602.1): each way to win is its own rule id.

No creature under the opponent's control left in play, concession, decisive
advantage, card text, penalty, a redeal declared with one card in hand.

A decisive advantage is not a flag: a ``check_victory`` event naming a player asks
the victory analysis (``solver/victory/``) whether that player holds one in the
position the rules allow at that point. The rule reads a literal; its value per
position is the analysis' verdict, entered under a fact literal named after the
proof (``solver.check.proofs``), with the certificate or counterexample reported.
"""
from __future__ import annotations

from dataclasses import replace

from solver.encoding.context import ProofRequest, RuleContext
from solver.errors import NotModelled
from solver.games.berserk.combat import COMBAT_ABILITIES, COMBAT_ATTRIBUTES, COMBAT_PROPERTIES
from solver.games.berserk.movement import MOVE, may_move
from solver.games.berserk.squads import opponent
from solver.victory.analysis import analyse
from solver.victory.model import combat_options, position_from


def has_creature(ctx: RuleContext, st, player: str):
    """Literal: the player controls a creature in play."""
    rm = ctx.rm
    return rm.any_of([rm.all_of([st["zone", o].one_of(ctx.rs.play_zones), ctx.controller(st, o).is_(player)])
                      for o, info in ctx.objects.items() if "creature" in info.types])


def game_over(ctx: RuleContext, st, winner: str, loser: str):
    """602.1's condition that the game goes on, as an exception literal: under ``berserk.602.1.game_over`` it holds
    exactly when either player is out of the game (won, lost, conceded), and then no clean victory is awarded; left
    out, a player out of the game may be awarded one (what ``prove``'s clean-victory-in-game excludes)."""
    rm = ctx.rm
    both = rm.all_of([st["pstatus", winner].is_("in_game"), st["pstatus", loser].is_("in_game")])
    return rm.exception("berserk.602.1.game_over", rm.neg(both), f"s{st.index}:game_over.{winner}")


def award(ctx: RuleContext, tr, winner: str, rule_id: str, when, loser_status: str = "lost") -> None:
    """Rule ``rule_id``: while both players are in the game and ``when`` holds, ``winner`` wins and the other loses.
    Once the game is over (a player won, lost or conceded) nothing is awarded: ``game_over``."""
    rm, st = ctx.rm, tr.prev
    loser = opponent(ctx, winner)
    go = rm.all_of([when, rm.neg(game_over(ctx, st, winner, loser))])
    tr.set(("pstatus", winner), "won", rule_id, go)
    tr.set(("pstatus", loser), loser_status, rule_id, go)


def combat_state(ctx: RuleContext, st) -> dict[str, object]:
    """What the victory analysis reads of every creature at stage ``st``: zone, effective controller, cell, the
    effective combat attributes, abilities and strike (``solver.games.berserk.combat.unit_from`` reads the same names)."""
    out: dict[str, object] = {}
    for o, info in ctx.objects.items():
        if "creature" not in info.types or info.action is not None:
            continue
        out[f"zone.{o}"] = st["zone", o]
        out[f"controller.{o}"] = ctx.controller(st, o)
        if ("cell", o) in ctx.domains:
            out[f"cell.{o}"] = st["cell", o]
        for a in COMBAT_ATTRIBUTES:
            if ("attr", o, a) in ctx.domains:
                out[f"attr.{o}.{a}"] = ctx.value(st, o, a)
        for ab in COMBAT_ABILITIES:
            if ("ability", o, ab) in ctx.domains or ctx.effects_on(o, "grant", ab) or ctx.effects_on(o, "remove", ab):
                out[f"ability.{o}.{ab}"] = ctx.has_ability(st, o, ab)
        for pr in COMBAT_PROPERTIES:
            if ("prop", o, pr) in ctx.domains:
                out[f"prop.{o}.{pr}"] = ctx.prop(st, o, pr)
        if ctx.effects_on(o, "prohibit", MOVE) or ctx.effects_on(o, "permit", MOVE):
            out[f"allowed.{o}.{MOVE}"] = may_move(ctx, st, o)  # the movement predicate's permission part
    return out


def needed(play: tuple[str, ...]):
    """The state names that decide a position (of ``combat_state``): a creature's zone; its controller if it is in
    play; its life if someone controls it; the rest if it has life left."""
    def names(values: dict[str, str]) -> list[str]:
        out = []
        for c in [n[len("zone."):] for n in values if n.startswith("zone.")]:
            out.append(f"zone.{c}")
            if values[f"zone.{c}"] not in play:
                continue
            out.append(f"controller.{c}")
            if values[f"controller.{c}"] == "none":
                continue
            life = f"attr.{c}.life"
            if life in values:
                out.append(life)
                if int(values[life]) <= 0:
                    continue
            rest = [f"cell.{c}", f"allowed.{c}.{MOVE}"] + [f"attr.{c}.{a}" for a in COMBAT_ATTRIBUTES if a != "life"] \
                + [f"ability.{c}.{ab}" for ab in COMBAT_ABILITIES] + [f"prop.{c}.{pr}" for pr in COMBAT_PROPERTIES]
            out += [n for n in rest if n in values]
        return out
    return names


def ask_decisive_advantage(ctx: RuleContext, st, player: str, ruling: str | None = None):
    """Literal: ``player`` holds a decisive advantage at stage ``st``, as the victory analysis proves it per position
    (a proof request the checker settles before solving); ``ruling``: the fact of a judge's ruling on the same claim
    here, recorded on the request."""
    sc, rs = ctx.sc, ctx.rs
    claim = ctx.rm.new_bool(f"s{st.index}:decisive_advantage.{player}")

    def decide(values: dict[str, str], options):
        """The analysis on one position: proved, refuted (with the counterexample) or unknown."""
        pos = replace(position_from(sc, rs, player, values), rules_off=frozenset(options.rules_off))
        horizon = int(combat_options(sc, rs)["victory_horizon"])
        return analyse("decisive_advantage", pos, options, horizon)

    name = f"proof.decisive_advantage.{player}.event{ctx.event_index + 1}"
    ctx.request_proof(ProofRequest(name, ctx.event_index, player, "decisive_advantage", claim,
                                    rs.victory_state(ctx, st), decide, needed(tuple(rs.play_zones)), ruling))
    return claim


def ruling_fact(ctx: RuleContext, player: str) -> str:
    """The name of the fact a judge's ruling for ``player`` at the current event enters the model as."""
    return f"judge_ruled.{player}.event{ctx.event_index + 1}"


def judge_ruling(ctx: RuleContext, st, player: str, claim=None):
    """Literal: a judge has ruled that ``player`` holds a decisive advantage here; it holds under the fact
    ``judge_ruled.P.eventN`` (a ruling entered as a fact, kept apart from the proof).

    A ruling is a fact only where no proof was asked or the proof is unknown: with ``claim`` (the literal a proof
    asked at the same event settles), the ruling asserts that claim. Where the proof is unknown the ruling decides
    it; where the proof refutes it the two facts contradict, and the core of the contradiction names both."""
    ruled = ctx.rm.new_bool(f"s{st.index}:judge_ruled.{player}")
    fact = ctx.rm.fact(ruling_fact(ctx, player))
    ctx.rm.model.add_implication(fact, ruled)
    if claim is not None:
        ctx.rm.model.add_implication(ruled, claim).only_enforce_if(fact)
    return ruled


class CleanVictory:
    """Mixin for the Berserk ruleset: the 602.1 events."""

    def victory_state(self, ctx: RuleContext, st) -> dict[str, object]:
        """What the victory analysis reads at ``st``: ``combat_state`` (effective characteristics), for a victory
        check's proof and a claim on an outcome alike."""
        return combat_state(ctx, st)

    def on_concede(self, ctx: RuleContext, ev) -> None:
        """602.1: a player who concedes loses; the opponent gets a clean victory."""
        if getattr(ev, "blank_battlefields", None):
            raise NotModelled("blank_battlefields is not part of the berserk rules", "blank_battlefields")
        opp = opponent(ctx, ev.player)
        with ctx.step(f"{ev.player} concedes") as tr:
            award(ctx, tr, opp, "berserk.602.1.concede", ctx.rm.true, loser_status="conceded")

    def on_penalty_loss(self, ctx: RuleContext, ev) -> None:
        """602.1: a player given a penalty loss loses; the opponent gets a clean victory."""
        with ctx.step(f"penalty loss for {ev.player}") as tr:
            award(ctx, tr, opponent(ctx, ev.player), "berserk.602.1.penalty", ctx.rm.true)

    def on_declare_redeal(self, ctx: RuleContext, ev) -> None:
        """602.1: a player who declares a redeal with exactly one card in hand gives the opponent a clean victory."""
        rm, st = ctx.rm, ctx.stage
        in_hand = [st["zone", o].is_("hand") for o, info in ctx.objects.items() if info.owner == ev.player and info.card]
        count = rm.new_int(f"s{st.index}:hand.{ev.player}", 0, max(1, len(in_hand)))
        rm.model.add(count == sum(in_hand))
        one = rm.int_eq(count, 1)
        with ctx.step(f"{ev.player} declares a redeal") as tr:
            award(ctx, tr, opponent(ctx, ev.player), "berserk.602.1.redeal", one)

    def on_card_victory(self, ctx: RuleContext, ev) -> None:
        """602.1: an ability of a card in play whose text says a player won (or lost) is fulfilled."""
        st = ctx.stage
        winner = ev.player if ev.result == "won" else opponent(ctx, ev.player)
        active = st["zone", ev.source].one_of(ctx.rs.play_zones)
        with ctx.step(f"{ev.source}: {ev.player} {ev.result}") as tr:
            award(ctx, tr, winner, "berserk.602.1.card_text", active)

    def on_check_victory(self, ctx: RuleContext, ev) -> None:
        """602.1: clean victory when the opponent controls no creature in play (and you do), or, for the players the
        event names, by a decisive advantage the victory analysis proves."""
        rm, st = ctx.rm, ctx.stage
        for p in ctx.players:
            opponent(ctx, p)
        has = {p: has_creature(ctx, st, p) for p in ctx.players}
        proved = {p: ask_decisive_advantage(ctx, st, p, ruling_fact(ctx, p) if p in ev.judge_ruled else None)
                  for p in ev.decisive_advantage}
        ruled = {p: judge_ruling(ctx, st, p, proved.get(p)) for p in ev.judge_ruled}
        with ctx.step("clean victory check") as tr:
            for p in ctx.players:
                q = opponent(ctx, p)
                award(ctx, tr, p, "berserk.602.1.no_creatures", rm.all_of([has[p], rm.neg(has[q])]))
                if p in proved:
                    award(ctx, tr, p, "berserk.602.1.decisive_advantage", proved[p])
                if p in ruled:
                    award(ctx, tr, p, "berserk.602.1.decisive_advantage", ruled[p])
