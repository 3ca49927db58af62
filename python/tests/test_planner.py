"""The planner API: plan, lower_bound, validate_plan, strategies."""

import random

import pytest

import mplan
from mplan import Buffer


def random_buffers(n, seed, horizon=60, max_size=4096):
    rng = random.Random(seed)
    result = []
    for i in range(n):
        start = rng.randrange(horizon)
        end = start + 1 + rng.randrange(12)
        result.append(Buffer(i, start, end, rng.randrange(1, max_size)))
    return result


def overlaps(a, oa, b, ob):
    live = a.start < b.end and b.start < a.end
    return live and oa < ob + b.size and ob < oa + a.size and a.size and b.size


def test_strategies_include_the_contract():
    names = mplan.strategies()
    for name in ("naive", "linear-scan", "greedy-by-size", "greedy-by-breadth", "best"):
        assert name in names


@pytest.mark.parametrize("strategy", mplan.strategies())
def test_every_strategy_gives_a_valid_plan(strategy):
    bufs = random_buffers(150, seed=7)
    plan = mplan.plan(bufs, strategy=strategy, time_limit=0.5)
    assert len(plan.offsets) == len(bufs)
    assert plan.lower_bound == mplan.lower_bound(bufs)
    assert plan.arena_size >= plan.lower_bound > 0
    assert plan.arena_size == max(o + b.size for o, b in zip(plan.offsets, bufs))
    assert plan.seconds >= 0
    assert plan.strategy.startswith(strategy.split("-")[0]) or strategy in ("best", "portfolio")
    mplan.validate_plan(bufs, plan.offsets, plan.arena_size)
    # Independent check in Python, too.
    for i, a in enumerate(bufs):
        for j in range(i):
            assert not overlaps(a, plan.offsets[i], bufs[j], plan.offsets[j]), (i, j)


def test_best_is_no_worse_than_greedy_by_size():
    bufs = random_buffers(200, seed=3)
    best = mplan.plan(bufs, "best", time_limit=0.5)
    greedy = mplan.plan(bufs, "greedy-by-size")
    naive = mplan.plan(bufs, "naive")
    assert best.arena_size <= greedy.arena_size <= naive.arena_size
    assert naive.arena_size == sum(b.size for b in bufs)


def test_small_example_is_optimal():
    bufs = [(0, 0, 2, 64), (1, 1, 3, 32), {"id": 2, "lower": 2, "upper": 4, "size": 16}]
    plan = mplan.plan(bufs)
    assert plan.arena_size == plan.lower_bound == 96
    assert plan.proven_optimal
    assert plan.ratio == 1.0
    assert "arena_size=96" in repr(plan)


def test_alignment_is_respected():
    bufs = [Buffer(0, 0, 4, 10), Buffer(1, 0, 4, 3, alignment=32), Buffer(2, 1, 2, 5)]
    plan = mplan.plan(bufs, strategy="greedy-by-size", alignment=16)
    assert all(o % 16 == 0 for o in plan.offsets)
    assert plan.offsets[1] % 32 == 0
    mplan.validate_plan(bufs, plan.offsets, plan.arena_size, alignment=16)


def test_stagger_spreads_pages():
    pages = [Buffer(i, i, i + 3, 4096) for i in range(5)]
    flat = mplan.plan(pages, strategy="greedy-by-size", alignment=64)
    spread = mplan.plan(pages, strategy="greedy-by-size", alignment=64, stagger=128)
    assert [o - (f // 4096) * 128 for o, f in zip(spread.offsets, flat.offsets)] == flat.offsets
    assert spread.stagger_bytes == spread.arena_size - flat.arena_size == 256
    assert flat.stagger_bytes == 0
    assert mplan.validate_plan(pages, spread.offsets, spread.arena_size, alignment=64) is None
    with pytest.raises(mplan.PlanError):
        mplan.plan(pages, alignment=64, stagger=96)


def test_empty_input():
    plan = mplan.plan([])
    assert plan.offsets == [] and plan.arena_size == 0 and plan.lower_bound == 0


def test_validate_plan_rejects_overlap_and_bad_offsets():
    bufs = [Buffer(0, 0, 2, 8), Buffer(1, 1, 3, 8)]
    mplan.validate_plan(bufs, [0, 8], 16)
    with pytest.raises(mplan.InvalidPlanError, match="0 and 1"):
        mplan.validate_plan(bufs, [0, 4])
    with pytest.raises(mplan.InvalidPlanError):
        mplan.validate_plan(bufs, [0, 8], arena_size=12)  # outside the arena
    with pytest.raises(mplan.InvalidPlanError):
        mplan.validate_plan(bufs, [0, -8], arena_size=16)
    with pytest.raises(mplan.InvalidPlanError, match="2 buffers"):
        mplan.validate_plan(bufs, [0])
    with pytest.raises(mplan.InvalidPlanError):
        mplan.validate_plan(bufs, [0, 9], 24, alignment=8)  # misaligned


def test_disjoint_lifetimes_may_share_bytes():
    bufs = [Buffer(0, 0, 2, 8), Buffer(1, 2, 3, 8)]  # end is exclusive
    mplan.validate_plan(bufs, [0, 0], 8)
    assert mplan.lower_bound(bufs) == 8


def test_unknown_strategy_raises():
    with pytest.raises(mplan.PlanError, match="unknown strategy 'bogus'"):
        mplan.plan([(0, 0, 1, 8)], strategy="bogus")
    with pytest.raises(mplan.PlanError):
        mplan.plan([(0, 0, 1, 8)], strategy=None)


@pytest.mark.parametrize("bad", [
    [(0, 3, 3, 8)],                 # end <= start
    [(0, 0, 1, -1)],                # negative size
    [(0, 0, 1, 8), (0, 1, 2, 8)],   # duplicate id
    [(0, 0, 1, 8, 3)],              # alignment not a power of two
    [(0, 0, 1, 2**62), (1, 0, 1, 2**62)],  # max-live overflows int64
])
def test_invalid_buffers_raise(bad):
    with pytest.raises(mplan.PlanError):
        mplan.plan(bad)
    with pytest.raises(mplan.PlanError):
        mplan.validate_input(bad)


@pytest.mark.parametrize("bad", [[(0, 0, 1)], ["abc"], [{"id": 0, "start": 0, "size": 4}],
                                 [(0, 0, 1, "x")]])
def test_malformed_buffer_objects_raise(bad):
    with pytest.raises(mplan.PlanError):
        mplan.plan(bad)


def test_out_of_range_integers_raise_plan_error_not_crash():
    with pytest.raises(mplan.PlanError, match="out of range for a 64-bit integer"):
        mplan.Buffer(0, 0, 1, 2**70)


def test_invalid_options_raise():
    with pytest.raises(mplan.PlanError):
        mplan.plan([(0, 0, 1, 8)], alignment=3)


def test_buffer_object():
    b = Buffer(4, 1, 5, 100, alignment=8)
    assert (b.id, b.start, b.end, b.size, b.alignment) == (4, 1, 5, 100, 8)
    assert b == Buffer(4, 1, 5, 100, 8)
    assert "alignment=8" in repr(b)
    import pickle
    assert pickle.loads(pickle.dumps(b)) == b
