"""The one conversion of user values: integers only, everywhere.

Every entry point (plan, lower_bound, validate_input, validate_plan,
format_csv, write_csv, Buffer, its attributes) takes ints, numpy integers and
integral numpy arrays, and raises PlanError naming the buffer (index and id)
and the field for anything else: floats (even 4.0), bools, NaN, inf, strings
and values outside the signed 64-bit range.
"""

import decimal
import fractions
import pickle
import random

import numpy as np
import pytest

import mplan
from mplan import Buffer

INT64_MAX = 2**63 - 1
INT64_MIN = -2**63

#: Values that are not integers, with the text the message shows.
NOT_INTEGERS = [
    (4.9, "4.9 (float)"),
    (4.0, "4.0 (float)"),
    (float("nan"), "nan (float)"),
    (float("inf"), "inf (float)"),
    (float("-inf"), "-inf (float)"),
    (True, "True (bool)"),
    (False, "False (bool)"),
    ("4", "'4' (str)"),
    (b"4", "b'4' (bytes)"),
    (None, "None (NoneType)"),
    (np.float64(4.9), "4.9 (numpy.float64)"),
    (np.float32(4.0), "4.0 (numpy.float32)"),
    (np.bool_(True), "True (numpy.bool_)"),
    (np.array(True), "array(True) (numpy.ndarray)"),
    (np.array([4]), "array([4]) (numpy.ndarray)"),
    (decimal.Decimal(4), "Decimal('4') (decimal.Decimal)"),
    (fractions.Fraction(4, 1), "Fraction(4, 1) (fractions.Fraction)"),
    (range(4), "range(0, 4) (range)"),
    (4 + 0j, "(4+0j) (complex)"),
]
OUT_OF_RANGE = [2**63, -2**63 - 1, 2**64, np.uint64(2**64 - 1), 10**30]
INTEGERS = [0, 7, INT64_MAX, np.int8(7), np.int64(7), np.uint8(7), np.uint64(7), np.intc(7),
            np.array(7), np.array(7, dtype=np.uint16)]

FIELDS = ["id", "start", "end", "size", "alignment"]
GOOD = (7, 0, 2, 4, 1)


def with_field(field, value):
    values = list(GOOD)
    values[FIELDS.index(field)] = value
    return tuple(values)


def as_dict(values, lower_upper=False):
    keys = ["id", "lower", "upper", "size", "alignment"] if lower_upper else FIELDS
    return dict(zip(keys, values))


def expected_message(field, shown, problem="is not an integer"):
    where = "buffers[1]" if field == "id" else "buffers[1] (id 7)"
    return f"{where}: {field} {shown} {problem}"


@pytest.mark.parametrize("field", FIELDS)
@pytest.mark.parametrize("value, shown", NOT_INTEGERS, ids=[s for _, s in NOT_INTEGERS])
def test_non_integers_raise_plan_error_naming_buffer_and_field(field, value, shown):
    other = (0, 0, 2, 4)
    for bad in (with_field(field, value), list(with_field(field, value)),
                as_dict(with_field(field, value)), as_dict(with_field(field, value), True)):
        for entry_point in (lambda bufs: mplan.plan(bufs, strategy="naive"), mplan.lower_bound,
                            mplan.validate_input, mplan.format_csv,
                            lambda bufs: mplan.validate_plan(bufs, [0, 8])):
            with pytest.raises(mplan.PlanError) as info:
                entry_point([other, bad])
            assert str(info.value) == expected_message(field, shown)
            assert isinstance(info.value, ValueError) and isinstance(info.value, mplan.Error)


@pytest.mark.parametrize("field", FIELDS)
@pytest.mark.parametrize("value", OUT_OF_RANGE, ids=str)
def test_out_of_range_raises_plan_error(field, value):
    with pytest.raises(mplan.PlanError) as info:
        mplan.plan([(0, 0, 2, 4), with_field(field, value)])
    assert str(info.value) == expected_message(
        field, int(value), "is out of range for a 64-bit integer")


@pytest.mark.parametrize("value", INTEGERS, ids=repr)
def test_integers_of_every_kind_are_accepted(value):
    bufs = [(value, 0, 2, 4), (-1, 1, 3, 4)]
    plan = mplan.plan(bufs, strategy="naive", alignment=np.int64(1), stagger=np.uint8(0),
                      time_limit=np.float32(0.5))
    assert plan.offsets == [0, 4]
    assert mplan.format_csv(bufs, plan.offsets).splitlines()[1] == f"{int(value)},0,2,4,0"
    b = Buffer(value, value, value, value)
    assert (b.id, b.start, b.end, b.size) == (int(value),) * 4


def test_the_examples_of_issue_21():
    with pytest.raises(mplan.PlanError, match=r"buffers\[0\] \(id 0\): size 4.9 \(float\)"):
        mplan.plan([(0, 0, 2, 4.9), (1, 0, 2, 4)], strategy="naive")
    with pytest.raises(mplan.PlanError, match=r"buffers\[0\] \(id 0\): end 1.5 \(float\)"):
        mplan.plan([(0, 0, 1.5, 4), (1, 1, 3, 4)])
    with pytest.raises(mplan.PlanError, match=r"start 0.5 \(float\)"):
        mplan.format_csv([(0, 0.5, 2.7, 4.9)], [1.5])
    with pytest.raises(mplan.PlanError, match=r"buffers\[0\] \(id 0\): offset 1.5 \(float\)"):
        mplan.format_csv([(0, 0, 2, 4)], [1.5])
    with pytest.raises(mplan.PlanError, match="size inf"):
        mplan.plan([(0, 0, 2, float("inf"))])
    with pytest.raises(mplan.PlanError, match="9223372036854775808 is out of range"):
        mplan.plan([(0, 0, 2, 2**63)])
    with pytest.raises(mplan.PlanError, match=r"^alignment 3.5 \(float\) is not an integer$"):
        mplan.plan([(0, 0, 2, 4)], alignment=3.5)


def test_numpy_arrays():
    ints = np.array([[0, 0, 2, 4], [1, 0, 2, 4]], dtype=np.int32)
    assert mplan.plan(ints, strategy="naive").offsets == [0, 4]
    assert mplan.lower_bound(ints.astype(np.uint64)) == 8
    mplan.validate_plan(ints, np.array([0, 4]))
    with pytest.raises(mplan.PlanError, match=r"^buffers\[0\]: id 0.0 \(numpy.float64\)"):
        mplan.plan(np.array([[0, 0, 2, 4.9], [1, 0, 2, 4]]), strategy="naive")
    with pytest.raises(mplan.PlanError,
                       match=r"^buffers\[0\] \(id 0\): offset 0.0 \(numpy.float64\)"):
        mplan.validate_plan(ints, np.array([0, 4.0]))
    with pytest.raises(mplan.PlanError, match=r"numpy.bool_"):
        mplan.plan(np.array([[0, 0, 2, 4]]) > 0)


@pytest.mark.parametrize("value, shown", NOT_INTEGERS[:8], ids=[s for _, s in NOT_INTEGERS[:8]])
def test_offsets_and_arena_size(value, shown):
    bufs = [(0, 0, 2, 4), (7, 0, 2, 4)]
    with pytest.raises(mplan.PlanError, match=r"^buffers\[1\] \(id 7\): offset "):
        mplan.validate_plan(bufs, [0, value])
    with pytest.raises(mplan.PlanError, match=r"^buffers\[1\] \(id 7\): offset "):
        mplan.format_csv(bufs, [0, value])
    table = mplan.parse_csv("id,lower,upper,size\n0,0,2,4\n7,0,2,4\n")
    with pytest.raises(mplan.PlanError, match=r"^buffers\[1\] \(id 7\): offset "):
        mplan.write_csv(table, [0, value])
    with pytest.raises(mplan.PlanError, match=r"^arena_size "):
        mplan.validate_plan(bufs, [0, 4], arena_size=value)


def test_offset_counts():
    bufs = [(0, 0, 2, 4)]
    with pytest.raises(mplan.PlanError, match="2 offsets for 1 buffers"):
        mplan.format_csv(bufs, [0, 4])
    with pytest.raises(mplan.PlanError, match="2 offsets for 1 rows"):
        mplan.write_csv(mplan.parse_csv("id,lower,upper,size\n0,0,2,4\n"), [0, 4])
    with pytest.raises(mplan.InvalidPlanError, match="2 offsets for 1 buffers"):
        mplan.validate_plan(bufs, [0, 4])
    # Offsets summing past int64 are an invalid plan, not an OverflowError.
    with pytest.raises(mplan.InvalidPlanError, match="exceeds the arena"):
        mplan.validate_plan([(0, 0, 2, 8)], [INT64_MAX])


def test_wrong_containers_raise_type_error():
    for bad in (5, None, "abc", b"abc", {"id": 0, "start": 0, "end": 1, "size": 4},
                Buffer(0, 0, 1, 4)):
        with pytest.raises(TypeError, match="buffers must be an iterable of buffers"):
            mplan.plan(bad)
    with pytest.raises(TypeError, match="offsets must be an iterable"):
        mplan.validate_plan([(0, 0, 1, 4)], 0)
    with pytest.raises(TypeError, match="CsvTable"):
        mplan.write_csv([(0, 0, 1, 4)], [0])


@pytest.mark.parametrize("bad, match", [
    ([5], r"^buffers\[0\]: not a buffer: 5 \(int\)$"),
    (["abcd"], r"^buffers\[0\]: not a buffer: 'abcd' \(str\)$"),
    ([(0, 0, 1)], r"^buffers\[0\]: a buffer is \(id, start, end, size\[, alignment\]\)"),
    ([(0, 0, 1, 4, 1, 9)], r"^buffers\[0\]: a buffer is"),
    ([{"id": 0, "start": 0, "size": 4}], r"^buffers\[0\]: no 'end' or 'upper' key"),
])
def test_malformed_buffers(bad, match):
    with pytest.raises(mplan.PlanError, match=match):
        mplan.plan(bad)


@pytest.mark.parametrize("field", FIELDS)
def test_buffer_constructor_and_attributes_are_strict(field):
    with pytest.raises(mplan.PlanError, match=f"^Buffer {field} 4.9 \\(float\\) is not an "):
        Buffer(*with_field(field, 4.9))
    with pytest.raises(mplan.PlanError, match=f"^Buffer {field} 9223372036854775808 is out "):
        Buffer(**dict(zip(FIELDS, with_field(field, 2**63))))
    b = Buffer(*GOOD)
    for value, _ in NOT_INTEGERS:
        with pytest.raises(mplan.PlanError, match=f"^Buffer {field} "):
            setattr(b, field, value)
    assert b == Buffer(*GOOD)
    setattr(b, field, np.int16(1))
    assert getattr(b, field) == 1 and type(getattr(b, field)) is int
    assert pickle.loads(pickle.dumps(b)) == b
    with pytest.raises(mplan.PlanError):
        Buffer.__new__(Buffer).__setstate__((0, 0, 1.5, 4, 1))


@pytest.mark.parametrize("kwargs, message", [
    ({"alignment": 3}, "alignment 3 is not a power of two"),
    ({"alignment": 0}, "alignment 0 is not a power of two"),
    ({"alignment": -1}, "alignment -1 is not a power of two"),
    ({"alignment": 100}, "alignment 100 is not a power of two"),
    ({"alignment": 3.5}, "alignment 3.5 (float) is not an integer"),
    ({"alignment": 4.0}, "alignment 4.0 (float) is not an integer"),
    ({"alignment": True}, "alignment True (bool) is not an integer"),
    ({"alignment": 2**64}, "alignment 18446744073709551616 is out of range for a 64-bit integer"),
    ({"alignment": 99999999999999999999},
     "alignment 99999999999999999999 is out of range for a 64-bit integer"),
    ({"stagger": 1.5}, "stagger 1.5 (float) is not an integer"),
    ({"stagger": -8}, "stagger -8 is not a non-negative multiple of the alignment 1"),
    ({"stagger": 4, "alignment": 8}, "stagger 4 is not a non-negative multiple of the alignment 8"),
    ({"time_limit": -1}, "the time limit must be non-negative"),
    ({"time_limit": float("nan")}, "the time limit must be non-negative"),
    ({"time_limit": float("inf")}, "time limit inf is out of range (at most 1000000000 seconds)"),
    ({"time_limit": 1e300}, "time limit 1e+300 is out of range (at most 1000000000 seconds)"),
    ({"time_limit": "1"}, "time limit '1' (str) is not a number of seconds"),
    ({"time_limit": True}, "time limit True (bool) is not a number of seconds"),
    ({"time_limit": None}, "time limit None (NoneType) is not a number of seconds"),
    ({"strategy": None}, "strategy None (NoneType) is not a string"),
    ({"strategy": "bogus"}, "unknown strategy 'bogus'"),
])
def test_options_like_mplan_plan(kwargs, message):
    with pytest.raises(mplan.PlanError) as info:
        mplan.plan([(0, 0, 2, 4)], **kwargs)
    assert str(info.value).startswith(message)
    if set(kwargs) == {"alignment"}:
        for entry_point in (mplan.lower_bound,
                            lambda bufs, alignment: mplan.validate_plan(bufs, [0], 4, alignment)):
            with pytest.raises(mplan.PlanError) as info:
                entry_point([(0, 0, 2, 4)], alignment=kwargs["alignment"])
            assert str(info.value) == message


def test_option_messages_are_the_ones_of_mplan_plan(tmp_path, mplan_plan):
    import subprocess
    src = tmp_path / "in.csv"
    src.write_text("id,lower,upper,size\n0,0,2,4\n")
    for option, kwargs in (("--alignment=3", {"alignment": 3}),
                           ("--time-limit=-1", {"time_limit": -1}),
                           ("--time-limit=nan", {"time_limit": float("nan")}),
                           ("--stagger=4", {"stagger": 4, "alignment": 8})):
        args = [option] + (["--alignment=8"] if "stagger" in option else [])
        proc = subprocess.run([str(mplan_plan), *args, str(src), "-o", str(tmp_path / "o.csv")],
                              capture_output=True, text=True)
        assert proc.returncode == 1
        with pytest.raises(mplan.PlanError) as info:
            mplan.plan_csv(src, tmp_path / "py.csv", **kwargs)
        assert proc.stderr.strip().endswith(f"{src}: {info.value}"), proc.stderr
    assert not (tmp_path / "py.csv").exists()


def test_lower_bound_overflow_message():
    with pytest.raises(mplan.PlanError, match="overflows int64"):
        mplan.lower_bound([(0, 0, 1, 2**62), (1, 0, 1, 2**62)])
    with pytest.raises(mplan.PlanError, match="padded to alignment 8, overflows int64"):
        mplan.lower_bound([(0, 0, 1, INT64_MAX - 2)], alignment=8)


# Property test: random instances whose values are of random Python and numpy
# types either plan validly (exactly when every value is an integer) or raise
# PlanError; nothing else.

INT_MAKERS = [int, np.int64, np.int32, np.uint32, np.uint64, np.int16, np.array]
BAD_MAKERS = [
    float, np.float64, np.float32, str, lambda v: v + 0.5, lambda v: bool(v % 2),
    lambda v: np.bool_(v % 2), lambda v: float("nan"), lambda v: float("inf"),
    lambda v: v + 2**63, lambda v: -2**63 - 1 - v, decimal.Decimal,
    lambda v: fractions.Fraction(v, 1), lambda v: None, lambda v: np.array([v]),
    lambda v: np.array(float(v)),
]


def random_value(rng, value, p_bad):
    if rng.random() < p_bad:
        return rng.choice(BAD_MAKERS)(value), False
    maker = rng.choice(INT_MAKERS)
    if maker in (np.int16,) and not -2**15 <= value < 2**15 or \
            maker in (np.int32,) and not -2**31 <= value < 2**31 or \
            maker in (np.uint32, np.uint64) and value < 0:
        maker = int
    return maker(value), True


def random_container(rng, values):
    kind = rng.randrange(4)
    if kind == 0:
        return tuple(values)
    if kind == 1:
        return list(values)
    if kind == 2:
        return as_dict(values, lower_upper=rng.random() < 0.5)
    row = np.empty(len(values), dtype=object)  # a row of an object array
    row[:] = values
    return row


def independent_check(bufs, offsets, alignment):
    for b, o in zip(bufs, offsets):
        assert o >= 0 and o % max(b[4], alignment) == 0
    for i, (a, oa) in enumerate(zip(bufs, offsets)):
        for b, ob in zip(bufs[:i], offsets[:i]):
            live = a[1] < b[2] and b[1] < a[2]
            assert not (live and a[3] and b[3] and oa < ob + b[3] and ob < oa + a[3])


@pytest.mark.parametrize("seed", range(40))
def test_random_value_types_plan_validly_or_raise_plan_error(seed):
    rng = random.Random(seed)
    p_bad = rng.choice([0.0, 0.01, 0.05, 0.3])
    n = rng.randrange(1, 40)
    ints, bufs, all_ints = [], [], True
    for i in range(n):
        start = rng.randrange(0, 30)
        values = [i * 3 - 7, start, start + rng.randrange(1, 10), rng.randrange(0, 5000),
                  rng.choice([1, 1, 1, 2, 8, 64])]
        if rng.random() < 0.02:  # semantically invalid, but integers
            values[rng.randrange(1, 5)] = rng.choice([-1, 3, start])
        ints.append(values)
        converted = []
        for v in values:
            value, ok = random_value(rng, v, p_bad)
            all_ints &= ok
            converted.append(value)
        bufs.append(random_container(rng, converted))
    alignment, ok = random_value(rng, rng.choice([1, 4, 16]), p_bad / 2)
    all_ints &= ok
    strategy = rng.choice(mplan.strategies())
    try:
        plan = mplan.plan(bufs, strategy=strategy, time_limit=0.05, alignment=alignment)
    except mplan.PlanError as e:
        if all_ints:  # only the planner's own checks may fail then
            assert "is not an integer" not in str(e) and "out of range" not in str(e), e
        return
    assert all_ints, "a value that is not an integer was accepted"
    independent_check(ints, plan.offsets, int(alignment))
    mplan.validate_plan(bufs, plan.offsets, plan.arena_size, alignment=alignment)
    assert mplan.lower_bound(bufs, alignment=alignment) == plan.lower_bound
    assert mplan.format_csv(bufs, plan.offsets) == \
        mplan.format_csv([tuple(v) for v in ints], plan.offsets)


@pytest.mark.parametrize("seed", range(20))
def test_random_value_types_never_escape_through_other_entry_points(seed):
    rng = random.Random(1000 + seed)
    bufs, offsets = [], []
    for i in range(rng.randrange(1, 12)):
        start = rng.randrange(0, 20)
        bufs.append(random_container(rng, [
            random_value(rng, v, 0.15)[0]
            for v in (i, start, start + rng.randrange(1, 8), rng.randrange(0, 100), 1)]))
        offsets.append(random_value(rng, rng.randrange(0, 400), 0.15)[0])
    calls = [
        lambda: mplan.lower_bound(bufs),
        lambda: mplan.validate_input(bufs),
        lambda: mplan.validate_plan(bufs, offsets),
        lambda: mplan.format_csv(bufs, offsets),
        lambda: [Buffer(*b) for b in bufs if not isinstance(b, dict)],
    ]
    for call in calls:
        try:
            call()
        except (mplan.PlanError, mplan.InvalidPlanError):
            pass

