"""The per-connection rate limit on its own: the bucket, and which frames spend from it
(test_ws_limits floods a real connection; test_network_bots plays at full speed)."""

from __future__ import annotations

from dominion.server.edge.transport.ratelimit import FrameLimiter, TokenBucket


def test_a_burst_then_the_rate_and_no_more_than_a_burst_saved_up() -> None:
    now = [1000.0]
    bucket = TokenBucket(rate=10, burst=3, clock=lambda: now[0])
    assert [bucket.take() for _ in range(4)] == [True, True, True, False]
    assert round(bucket.seconds_to_next(), 3) == 0.1
    now[0] += 0.1  # one frame's worth at 10 per second
    assert [bucket.take(), bucket.take()] == [True, False]
    now[0] += 60  # a long pause saves up the burst, not 600 frames
    assert [bucket.take() for _ in range(4)] == [True, True, True, False]


def test_a_frame_after_the_previous_answer_went_out_is_free_whatever_the_speed() -> None:
    limiter = FrameLimiter(rate=1, burst=2, clock=lambda: 0.0)  # the clock never moves
    for writes in range(1000):  # each answer is written before the next frame arrives
        assert limiter.admit(writes) is None
        limiter.replied(writes)
    assert not limiter.flooding


def test_pipelined_frames_spend_the_burst_then_are_refused_with_a_time_then_closed() -> None:
    now = [0.0]
    limiter = FrameLimiter(rate=4, burst=2, clock=lambda: now[0])
    assert limiter.admit(0) is None  # nothing outstanding: the first frame is free
    limiter.replied(0)  # its answer is still queued when the next frames arrive
    assert [limiter.admit(0), limiter.admit(0)] == [None, None]  # the burst
    assert limiter.admit(0) == 250  # a token comes back in 1/4 s
    assert limiter.admit(0) == 250 and not limiter.flooding  # two refusals: the burst
    now[0] += 0.25
    assert limiter.admit(0) is None  # a refilled token lets one through, but a flood
    assert limiter.admit(0) == 250 and limiter.flooding  # faster than the refill: close
    limiter.replied(0)
    assert limiter.admit(1) is None and not limiter.flooding  # it waited: count again
