package io.sluice.kafka.gates;

import io.netty.buffer.ByteBuf;

/**
 * What a gate decided about a request: the one way a request leaves a gate, which the connection
 * alone carries out ({@link KafkaOutbound#act}). A request goes to the broker, whole or cut, its
 * response awaited through an {@link Exchange} or, with {@code acks=0}, not at all; or Sluice
 * answers it now, in its turn (a refusal is such an answer: Kafka has no other way to say no); or
 * the gate holds it, and nothing goes now.
 *
 * <p>Each gate reuses one instance per place it decides in, so deciding allocates nothing; a verdict
 * is valid until its gate decides again. Owns the frame and the answer it carries until
 * {@link #takeFrame} or {@link #takeAnswer} hands them on. Confined to the connection's event loop.
 */
public final class GateVerdict {

    /** What becomes of the request. */
    public enum Kind {
        /** To the broker: {@link #takeFrame()}, or the lent request as it came when that is null. */
        FORWARD,
        /** Answered by Sluice, in its turn: {@link #takeAnswer()}. */
        ANSWER,
        /** Kept by the gate, or dropped (an {@code acks=0} batch the broker would drop too): nothing goes now. */
        HOLD
    }

    private Kind kind = Kind.HOLD;
    private ByteBuf frame;
    private ByteBuf answer;
    private Exchange exchange;
    private boolean awaitsResponse;

    /**
     * To the broker, whose response goes through {@code exchange} (null: to the client as it is);
     * {@code frame} is a cut or a held request, owned by the verdict, or null for the lent request as
     * it came.
     */
    GateVerdict forward(ByteBuf frame, Exchange exchange) {
        return set(Kind.FORWARD, frame, null, exchange, true);
    }

    /** To the broker, which answers nothing ({@code acks=0}); {@code frame} as for {@link #forward}. */
    GateVerdict forwardUnanswered(ByteBuf frame) {
        return set(Kind.FORWARD, frame, null, null, false);
    }

    /** Answered by Sluice with {@code answer}, which the verdict owns. */
    GateVerdict answer(ByteBuf answer) {
        return set(Kind.ANSWER, null, answer, null, true);
    }

    /** Kept by the gate: nothing goes now. */
    GateVerdict hold() {
        return set(Kind.HOLD, null, null, null, false);
    }

    public Kind kind() {
        return kind;
    }

    /** Whether a response from the broker, or Sluice's answer, is due to the client. */
    public boolean awaitsResponse() {
        return awaitsResponse;
    }

    /** Where the broker's response goes before the client sees it; null for nowhere. */
    public Exchange exchange() {
        return exchange;
    }

    /** The frame to forward, which the caller then owns; null for the lent request as it came. */
    public ByteBuf takeFrame() {
        ByteBuf taken = frame;
        frame = null;
        return taken;
    }

    /** Sluice's answer, which the caller then owns. */
    public ByteBuf takeAnswer() {
        ByteBuf taken = answer;
        answer = null;
        return taken;
    }

    private GateVerdict set(Kind kind, ByteBuf frame, ByteBuf answer, Exchange exchange, boolean awaitsResponse) {
        if (this.frame != null || this.answer != null) {
            throw new IllegalStateException("the previous verdict was not carried out");
        }
        this.kind = kind;
        this.frame = frame;
        this.answer = answer;
        this.exchange = exchange;
        this.awaitsResponse = awaitsResponse;
        return this;
    }
}
