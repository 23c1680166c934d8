"""A librdkafka client (python3-confluent-kafka) for LibrdkafkaClientsIT, driven by its arguments.

produce: sends --count records numbered from 0 ("<prefix><n>") to --topic, then waits for every
delivery report; prints what the reports and librdkafka's throttle callback said.
consume: reads --topic in consumer group --group until --count records came (then a second more,
to see duplicates) or --timeout passed; prints the values in the order they came.
rejoin: --count times joins consumer group --group on --topic, waits for its assignment (at most
--timeout seconds each time) and leaves again; prints how long each join took and the errors seen.

Every --config KEY=VALUE goes to librdkafka as it is (security.protocol, sasl.*, ssl.*, batching).
The result is one JSON object on stdout.
"""
import argparse
import json
import time

from confluent_kafka import Consumer, Producer


def settings(args):
    conf = {"bootstrap.servers": args.bootstrap}
    for pair in args.config:
        key, value = pair.split("=", 1)
        conf[key] = value
    return conf


def produce(args):
    result = {"delivered": 0, "errors": {}, "errorMessages": [], "throttleMs": []}
    conf = settings(args)
    conf["throttle_cb"] = lambda event: result["throttleMs"].append(int(event.throttle_time * 1000))
    producer = Producer(conf)

    def report(error, message):
        if error is None:
            result["delivered"] += 1
        else:
            result["errors"][error.name()] = result["errors"].get(error.name(), 0) + 1
            if len(result["errorMessages"]) < 5:
                result["errorMessages"].append(error.str())

    start = time.monotonic()
    for n in range(args.count):
        while True:
            try:
                producer.produce(args.topic, value=("%s%d" % (args.prefix, n)).encode(), on_delivery=report)
                break
            except BufferError:
                producer.poll(0.05)
        producer.poll(0)
    result["undelivered"] = producer.flush(args.timeout)
    result["elapsedMs"] = int((time.monotonic() - start) * 1000)
    producer.poll(0.5)  # throttle events that came with the last responses
    return result


def consume(args):
    conf = settings(args)
    conf.update({"group.id": args.group, "auto.offset.reset": "earliest"})
    consumer = Consumer(conf)
    consumer.subscribe([args.topic])
    values, errors = [], []
    deadline = time.monotonic() + args.timeout
    settle_until = None
    while time.monotonic() < deadline and (settle_until is None or time.monotonic() < settle_until):
        message = consumer.poll(0.2)
        if message is None:
            continue
        if message.error():
            errors.append(message.error().str())
            continue
        values.append(message.value().decode())
        if len(values) >= args.count and settle_until is None:
            settle_until = time.monotonic() + 1.0
    consumer.close()
    return {"values": values, "errors": errors[:5]}


def rejoin(args):
    joins_ms, errors = [], []
    for _ in range(args.count):
        conf = settings(args)
        conf.update({"group.id": args.group, "auto.offset.reset": "earliest",
                     "error_cb": lambda error: errors.append(error.str())})
        assigned = []
        consumer = Consumer(conf)
        start = time.monotonic()
        consumer.subscribe([args.topic], on_assign=lambda c, partitions: assigned.append(len(partitions)))
        deadline = start + args.timeout
        while not assigned and time.monotonic() < deadline:
            message = consumer.poll(0.1)
            if message is not None and message.error():
                errors.append(message.error().str())
        joins_ms.append(int((time.monotonic() - start) * 1000) if assigned else None)
        consumer.close()
    return {"joinsMs": joins_ms, "errors": errors[:5]}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("action", choices=["produce", "consume", "rejoin"])
    parser.add_argument("--bootstrap", required=True)
    parser.add_argument("--topic", required=True)
    parser.add_argument("--count", type=int, required=True)
    parser.add_argument("--prefix", default="record-")
    parser.add_argument("--group")
    parser.add_argument("--timeout", type=float, default=60)
    parser.add_argument("--config", action="append", default=[])
    args = parser.parse_args()
    actions = {"produce": produce, "consume": consume, "rejoin": rejoin}
    print(json.dumps(actions[args.action](args)))


if __name__ == "__main__":
    main()
