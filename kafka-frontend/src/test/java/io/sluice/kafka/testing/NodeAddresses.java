package io.sluice.kafka.testing;

import org.apache.kafka.common.message.DescribeClusterResponseData;
import org.apache.kafka.common.message.FetchResponseData;
import org.apache.kafka.common.message.FindCoordinatorResponseData;
import org.apache.kafka.common.message.MetadataResponseData;
import org.apache.kafka.common.message.ProduceResponseData;
import org.apache.kafka.common.message.ShareAcknowledgeResponseData;
import org.apache.kafka.common.message.ShareFetchResponseData;
import org.apache.kafka.common.protocol.ApiMessage;

import java.util.ArrayList;
import java.util.List;

/** Every broker address a client would take from a response, as kafka-clients reads it. */
public final class NodeAddresses {

    /** One node a response names. */
    public record Address(int nodeId, String host, int port) {}

    private NodeAddresses() {}

    public static List<Address> of(ApiMessage response, short version) {
        List<Address> addresses = new ArrayList<>();
        if (response instanceof MetadataResponseData data) {
            data.brokers().forEach(b -> addresses.add(new Address(b.nodeId(), b.host(), b.port())));
        } else if (response instanceof FindCoordinatorResponseData data) {
            if (version < 4) {
                addresses.add(new Address(data.nodeId(), data.host(), data.port()));
            }
            data.coordinators().forEach(c -> addresses.add(new Address(c.nodeId(), c.host(), c.port())));
        } else if (response instanceof DescribeClusterResponseData data) {
            data.brokers().forEach(b -> addresses.add(new Address(b.brokerId(), b.host(), b.port())));
        } else if (response instanceof ProduceResponseData data) {
            data.nodeEndpoints().forEach(e -> addresses.add(new Address(e.nodeId(), e.host(), e.port())));
        } else if (response instanceof FetchResponseData data) {
            data.nodeEndpoints().forEach(e -> addresses.add(new Address(e.nodeId(), e.host(), e.port())));
        } else if (response instanceof ShareFetchResponseData data) {
            data.nodeEndpoints().forEach(e -> addresses.add(new Address(e.nodeId(), e.host(), e.port())));
        } else if (response instanceof ShareAcknowledgeResponseData data) {
            data.nodeEndpoints().forEach(e -> addresses.add(new Address(e.nodeId(), e.host(), e.port())));
        }
        return addresses;
    }
}
