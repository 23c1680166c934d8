package io.sluice.kafka.codec;

import io.sluice.relay.FrameView;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.message.ProduceResponseData;

import java.util.ArrayList;
import java.util.List;

/**
 * The partitions a Produce response refuses (a non-zero {@code error_code}), each named: a gate that
 * charged the partitions it forwarded gives back the charge of what the broker did not store. The
 * slow path, read only when {@link ProduceResponseScan} found a refusal in place.
 */
public final class ProduceErrors {

    private ProduceErrors() {}

    /**
     * The partitions the response {@code frame} refuses, each as its topic's name (or, from v13, id)
     * and index, allocating as it reads.
     */
    public static List<Refused> refused(FrameView frame, int bodyIndex, short version) {
        ProduceResponseData response =
                MessageFrames.read(new ProduceResponseData(), frame, bodyIndex, version, "bad_response_body");
        List<Refused> refused = new ArrayList<>();
        for (ProduceResponseData.TopicProduceResponse topic : response.responses()) {
            for (ProduceResponseData.PartitionProduceResponse partition : topic.partitionResponses()) {
                if (partition.errorCode() != 0) {
                    refused.add(new Refused(topic.name(), topic.topicId(), partition.index()));
                }
            }
        }
        return refused;
    }

    /**
     * A partition a Produce response refuses.
     *
     * @param topic the topic's name; empty from v13 on
     * @param topicId the topic's id; {@link Uuid#ZERO_UUID} before v13
     * @param partition the partition's index
     */
    public record Refused(String topic, Uuid topicId, int partition) {}
}
