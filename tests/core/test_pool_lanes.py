"""Work over many logs (a profile, the inference of `batch?ruleset=auto`) runs in the lane its
cost belongs to, with a time budget per log it stands for: before, it ran in the single-check
lane as size 0 under one check's budget."""

from __future__ import annotations

import asyncio
import os
import time

from dosverify.pool import LARGE_NICE, CheckPool, CheckTimeout


def _run(jobs, budget=0.6):
    async def go():
        pool = CheckPool(1, budget)
        try:
            return await pool.run(jobs)
        finally:
            pool.close()

    return asyncio.run(go())


def test_a_job_that_names_its_lane_runs_there():
    base = os.getpriority(os.PRIO_PROCESS, 0)
    [single] = _run([("call", (os.getpriority, (os.PRIO_PROCESS, 0)), 0)])
    [large] = _run([("call", (os.getpriority, (os.PRIO_PROCESS, 0)), 0, "large")])
    assert single == base  # a one-job request of size 0: the single-check lane, as before
    assert large == min(19, base + LARGE_NICE)  # named: the large lane's worker


def test_a_job_of_weight_n_has_n_budgets():
    [out] = _run([("call", (time.sleep, (1.0,)), 0, "large", 3)])  # 1 s within 3 x 0.6 s
    assert out is None
    try:
        _run([("call", (time.sleep, (1.0,)), 0, "large", 1)])  # 1 s past one budget of 0.6 s
    except CheckTimeout as exc:
        assert exc.budget == 0.6
    else:
        raise AssertionError("a job past its one budget was not stopped")
