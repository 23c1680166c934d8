package io.sluice.pulsar.codec;

/**
 * The fields of a SEND, SEND_RECEIPT or SEND_ERROR that the proxy acts on. A mutable holder that
 * one handler reuses for every message, so reading a send allocates nothing.
 */
public final class SendFields {
    public long producerId;
    public long sequenceId;
    /** For SEND: messages in the batch (protocol default 1). */
    public int numMessages;
    /** The last sequence id of a batch, 0 when absent. */
    public long highestSequenceId;

    public boolean chunk;

    /**
     * The sequence id a client matches a receipt or SendError against: a batch's last one. The
     * Java client fails a pending batch only for an error naming its highest sequence id and
     * ignores any other, leaving that batch pending for ever.
     */
    public long lastSequenceId() {
        return Math.max(sequenceId, highestSequenceId);
    }

    void clear() {
        producerId = -1;
        sequenceId = -1;
        numMessages = 1;
        highestSequenceId = 0;
        chunk = false;
    }
}
