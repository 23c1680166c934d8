"""A librdkafka flood (python3-confluent-kafka) for the bench's librdkafka scenario.

Produces records of --size bytes to --topic as fast as librdkafka takes them, with librdkafka's
default batching unless a --config KEY=VALUE says otherwise, for --seconds; records still queued then
are dropped. Prints one JSON object: "perSecond", the records whose delivery report came in each second
since the start, and "errors", the failed deliveries by error name.
"""
import argparse
import json
import time

from confluent_kafka import Producer


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bootstrap", required=True)
    parser.add_argument("--topic", required=True)
    parser.add_argument("--seconds", type=int, required=True)
    parser.add_argument("--size", type=int, default=100)
    parser.add_argument("--config", action="append", default=[])
    args = parser.parse_args()

    conf = {"bootstrap.servers": args.bootstrap}
    for pair in args.config:
        key, value = pair.split("=", 1)
        conf[key] = value
    producer = Producer(conf)
    per_second = [0] * args.seconds
    errors = {}
    start = time.monotonic()

    def report(error, message):
        if error is not None:
            errors[error.name()] = errors.get(error.name(), 0) + 1
            return
        second = int(time.monotonic() - start)
        if second < args.seconds:
            per_second[second] += 1

    value = b"x" * args.size
    end = start + args.seconds
    while time.monotonic() < end:
        try:
            producer.produce(args.topic, value=value, on_delivery=report)
        except BufferError:
            producer.poll(0.01)
            continue
        producer.poll(0)
    producer.purge()
    producer.flush(5)
    errors.pop("_PURGE_QUEUE", None)
    errors.pop("_PURGE_INFLIGHT", None)
    print(json.dumps({"perSecond": per_second, "errors": errors}))


if __name__ == "__main__":
    main()
