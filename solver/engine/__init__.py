"""Solving: settings and answers (``settings``), solves and enumeration (``solve``), minimal re-checked cores
(``cores``)."""
