"""The abuse bench (bench/abuse.py) still runs every attack and reports its figures: the
longest bench run of the suite, in a file of its own (tests/test_bench.py says why)."""

from __future__ import annotations

import pytest

from .bench_run import BENCH, RUN_BOUND_S, run_json

pytestmark = pytest.mark.system  # ten servers in turn, each attacked for a moment


@pytest.mark.timeout(RUN_BOUND_S + 30)  # ten servers in turn: 177 s in a busy CI run
def test_the_abuse_bench_runs_every_attack_and_reports_its_figures() -> None:
    # 3 addresses of 2 tables each: every attack and figure, on the least work that still
    # floods from several addresses (the address floods' games dominate the run; the bench's
    # own run uses 40 x 20): a smoke test of the bench, not of its figures
    result = run_json(str(BENCH / "abuse.py"), "--seconds", "0.5", "--frames", "300",
                      "--requests", "40", "--addresses", "3", "--tables-each", "2")
    phases = {phase["phase"]: phase for phase in result["phases"]}
    assert list(phases) == ["baseline", "ws-fuzz", "rest-fuzz", "slow-readers",
                            "resume-flood", "chat-flood", "sigterm", "addresses-unbounded",
                            "addresses", "sign-in-flood"]
    assert all(phase["server_faults"] == 0 for phase in phases.values())
    # (without the server-wide bounds, many addresses can starve the probe of every answer)
    assert all(phase["probe"]["count"] > 0 for name, phase in phases.items()
               if name != "addresses-unbounded")
    assert phases["ws-fuzz"]["frames"] == 300 and phases["rest-fuzz"]["requests"] == 40
    assert phases["sigterm"]["exit_code_on_sigterm"] == 0
    owner = phases["sign-in-flood"]["owner"]  # the account's owner, from its known device
    assert owner["sign_ins"] > 0 and "share_within_2s" in owner
    for name in ("addresses-unbounded", "addresses"):  # 3 addresses, 2 tables each
        assert phases[name]["addresses"] == 3 and phases[name]["tables"] == 6
        assert phases[name]["replays"] > 0
    assert phases["sign-in-flood"]["replies"].get("wrong_credentials", 0) > 0
