package io.sluice.kafka.connection;

import io.netty.buffer.ByteBuf;
import io.sluice.kafka.testing.KafkaFrames;
import io.sluice.kafka.testing.StandInBroker;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.ApiMessage;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.apache.kafka.common.requests.RequestHeader;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * The broker end of a {@link ConnectionHarness}: reads the request frames Sluice forwarded and
 * answers those a {@link StandInBroker} answers, so that a pipeline under test gets as far as
 * producing and fetching. A broker answers a connection's requests in order: after a request it
 * cannot read or does not answer, this one answers nothing more.
 */
final class FakeBroker {

    private final StandInBroker answers = new StandInBroker("127.0.0.1", 9092);
    private final ByteArrayOutputStream pending = new ByteArrayOutputStream();
    private boolean stalled;
    /** The API of every request received, in order. */
    final List<ApiKeys> received = new ArrayList<>();

    /** Answers every whole request the harness's broker side received; returns how many requests it read. */
    int answer(ConnectionHarness harness) {
        if (!harness.hasUpstream()) {
            return 0;
        }
        pending.writeBytes(harness.brokerReceived());
        ByteBuffer stream = ByteBuffer.wrap(pending.toByteArray());
        int read = 0;
        List<ByteBuf> responses = new ArrayList<>();
        while (stream.remaining() >= 4 && stream.remaining() - 4 >= stream.getInt(stream.position())) {
            int size = stream.getInt();
            ByteBuffer request = stream.slice(stream.position(), size);
            stream.position(stream.position() + size);
            read++;
            ByteBuf response = stalled ? null : respond(request);
            if (response != null) {
                responses.add(response);
            }
        }
        pending.reset();
        pending.write(stream.array(), stream.position(), stream.remaining());
        if (!responses.isEmpty() && harness.upstream().isOpen()) {
            harness.brokerSends(responses.toArray(ByteBuf[]::new));
        } else {
            responses.forEach(ByteBuf::release);
        }
        return read;
    }

    private ByteBuf respond(ByteBuffer request) {
        RequestHeader header;
        ApiMessage response;
        try {
            header = RequestHeader.parse(request);
            received.add(header.apiKey());
            if (!StandInBroker.answers(header.apiKey())) {
                stalled = true;
                return null;
            }
            response = answers.answer(header, new ByteBufferAccessor(request));
        } catch (RuntimeException unreadable) {
            stalled = true;
            return null;
        }
        // acks=0: no answer is due.
        return response == null ? null : KafkaFrames.response(response, header.apiVersion(), header.correlationId());
    }
}
