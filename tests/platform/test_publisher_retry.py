"""A push to the pages is sent again once when its Redis connection fails: on a busy machine a
connection's health check can time out, and redis-py then fails that attempt with an
AttributeError from its closed reader; without the second attempt the pages of that change
waited for their heartbeat."""
import time

import redis

from games.live import publisher


def test_a_publish_whose_connection_failed_is_sent_again_and_heard(monkeypatch):
    assert publisher._uses_pubsub(), "the suite runs the Redis pub/sub layer"
    group = f"retry-{time.monotonic_ns()}"
    channel = publisher.group_channel(group)
    listener = redis.Redis.from_url(publisher._hosts()[0]).pubsub()
    listener.subscribe(channel)
    assert listener.get_message(timeout=2)["type"] == "subscribe"

    real, calls = redis.client.Pipeline.execute, []

    def fails_once(pipe, *args, **kwargs):
        calls.append(1)
        if len(calls) == 1:
            raise AttributeError("'NoneType' object has no attribute 'readline'")
        return real(pipe, *args, **kwargs)

    monkeypatch.setattr(redis.client.Pipeline, "execute", fails_once)
    listened = publisher.group_send_many([(group, {"type": "match.frame", "version": 7})])
    assert len(calls) == 2 and listened == [1]
    message = listener.get_message(timeout=2)
    assert message is not None and message["channel"].decode() == channel
    listener.close()
