package io.sluice.kafka.connection;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.handler.ssl.SslProvider;
import io.sluice.admission.AdmissionController;
import io.sluice.admission.RequestType;
import io.sluice.admission.Signal;
import io.sluice.admission.SignalSource;
import io.sluice.kafka.codec.HandledApi;
import io.sluice.kafka.routing.BrokerEndpoint;
import io.sluice.kafka.scopes.KafkaScopes;
import io.sluice.kafka.testing.BrokerResponses;
import io.sluice.kafka.testing.KafkaFrames;
import io.sluice.kafka.testing.RecordFrames;
import io.sluice.kafka.testing.RecordFrames.Part;
import io.sluice.limits.EventRate;
import io.sluice.limits.Limit;
import io.sluice.limits.OnExceed;
import io.sluice.limits.RateLimit;
import io.sluice.limits.ScopeRef;
import io.sluice.relay.Drain;
import io.sluice.relay.connection.HandshakeDeadline;
import io.sluice.relay.connection.RefusingSocketChannel;
import io.sluice.relay.tls.ReloadingSslContext;
import io.sluice.relay.tls.UpstreamTlsFiles;
import io.sluice.status.ThrottledClient;
import io.sluice.testing.EmbeddedSocketChannel;
import io.sluice.testing.LeakCheck;
import org.apache.kafka.common.errors.RetriableException;
import org.apache.kafka.common.message.ApiVersionsRequestData;
import org.apache.kafka.common.message.ApiVersionsResponseData;
import org.apache.kafka.common.message.FindCoordinatorRequestData;
import org.apache.kafka.common.message.FindCoordinatorResponseData;
import org.apache.kafka.common.message.InitProducerIdRequestData;
import org.apache.kafka.common.message.JoinGroupRequestData;
import org.apache.kafka.common.message.MetadataRequestData;
import org.apache.kafka.common.message.ProduceRequestData;
import org.apache.kafka.common.message.ProduceResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.FindCoordinatorRequest.CoordinatorType;
import org.apache.kafka.common.requests.FindCoordinatorResponse;
import org.apache.kafka.common.requests.InitProducerIdResponse;
import org.apache.kafka.common.requests.JoinGroupResponse;
import org.apache.kafka.common.requests.MetadataResponse;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static io.sluice.kafka.connection.ConnectionHarness.bytes;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * One Kafka connection through the whole pipeline, in memory: requests forwarded as the very bytes
 * that came, responses matched to requests in order and rewritten, Sluice's own answers in their
 * turn, back-pressure, drain, the handshake deadline and malformed input.
 */
@ExtendWith(LeakCheck.class)
class KafkaConnectionTest {

    private static final short METADATA_VERSION = 12;
    private static final short PRODUCE_VERSION = 11;
    private static final ScopeRef SLOW = new ScopeRef(KafkaScopes.TOPIC, "slow");

    private ConnectionHarness harness = new ConnectionHarness();

    @AfterEach
    void nothingLeft() {
        harness.close();
        assertEquals(0, harness.alloc.metric().usedHeapMemory(), "buffers left unreleased");
        assertEquals(0, harness.stats.openConnections(), "connection still counted as open");
        assertFalse(harness.loop.hasTimers(), "a timer outlived its connection");
    }

    @Test
    void opensTheUpstreamAtTheFirstRequestAndForwardsRequestsAsTheyCame() {
        assertFalse(harness.hasUpstream(), "no upstream before a request");
        ByteBuf request = metadataRequest(1);
        byte[] expected = bytes(request);

        harness.clientSends(request);

        assertEquals(1, harness.upstreamsOpened());
        assertArrayEquals(expected, harness.brokerReceived());
        assertEquals(Map.of("metadata", 1L), harness.stats.requests());
    }

    @Test
    void answersComeBackInRequestOrderWithBrokerAddressesRewritten() {
        harness.clientSends(metadataRequest(1));
        harness.brokerReceived();

        harness.brokerSends(KafkaFrames.response(BrokerResponses.metadata(METADATA_VERSION), METADATA_VERSION, 1));

        MetadataResponse response = (MetadataResponse)
                KafkaFrames.asClientReads(wrap(harness.clientReceived()), ApiKeys.METADATA, METADATA_VERSION, 1);
        response.data().brokers().forEach(broker -> {
            assertEquals(ConnectionHarness.SLUICE_HOST, broker.host());
            assertEquals(ConnectionHarness.NODE_PORT_BASE + broker.nodeId(), broker.port());
        });
        assertEquals(List.of(0, 1, 2), harness.nodesOpened);
        assertEquals(new BrokerEndpoint(BrokerResponses.host(1), BrokerResponses.port(1)), harness.nodes.endpoint(1));
    }

    @Test
    void aResponseToNoRequestInFlightClosesTheConnection() {
        harness.clientSends(metadataRequest(1));

        harness.brokerSends(KafkaFrames.response(BrokerResponses.metadata(METADATA_VERSION), METADATA_VERSION, 2));

        assertFalse(harness.client.isOpen());
        assertEquals(Map.of("unexpected_response", 1L), harness.stats.protocolErrors());
    }

    @Test
    void produceResponseTimesFeedTheUpstreamLatencySignalOfAdmissionControl() {
        harness.clientSends(produceRequest(1, (short) -1));
        harness.brokerSends(KafkaFrames.response(new ProduceResponseData(), (short) 9, 1));

        assertEquals(1, harness.services.upstreamLatency().count(System.nanoTime()));
    }

    @Test
    void produceWithAcksZeroIsNotAwaitedSoTheNextResponseMatchesTheNextRequest() {
        harness.clientSends(produceRequest(1, (short) 0), metadataRequest(2));
        harness.brokerReceived();

        harness.brokerSends(KafkaFrames.response(BrokerResponses.metadata(METADATA_VERSION), METADATA_VERSION, 2));

        assertTrue(harness.client.isOpen());
        KafkaFrames.asClientReads(wrap(harness.clientReceived()), ApiKeys.METADATA, METADATA_VERSION, 2);
    }

    @Test
    void sluicesOwnAnswerWaitsForTheResponsesOfEarlierRequests() {
        ByteBuf produce = produceRequest(1, (short) -1);
        ByteBuf newerApiVersions = KafkaFrames.request(
                new ApiVersionsRequestData().setClientSoftwareName("future").setClientSoftwareVersion("9"),
                (short) 4,
                2,
                "client");
        newerApiVersions.setShort(6, HandledApi.API_VERSIONS.maxVersion() + 1);

        harness.clientSends(produce, newerApiVersions);

        assertEquals(0, harness.clientReceived().length, "answered before the produce response");
        ByteBuf produceResponse = KafkaFrames.response(new ProduceResponseData(), (short) 9, 1);
        byte[] expectedFirst = bytes(produceResponse);
        harness.brokerSends(produceResponse);
        byte[] received = harness.clientReceived();
        ByteBuf both = wrap(received);
        try {
            assertArrayEquals(expectedFirst, KafkaFrames.frameBytes(both.readSlice(expectedFirst.length)));
            ApiVersionsResponseData answer =
                    KafkaFrames.body(both.slice(), ApiKeys.API_VERSIONS, (short) 0, new ApiVersionsResponseData());
            assertEquals(Errors.UNSUPPORTED_VERSION.code(), answer.errorCode());
            assertEquals(2, both.getInt(both.readerIndex() + 4), "correlation id of the own answer");
        } finally {
            both.release();
        }
    }

    @Test
    void aRefusedMetadataRequestGetsAnAnswerWithoutBrokersAndIsNotForwarded() {
        harness.close();
        double[] heap = {0.0};
        AdmissionController admission = new AdmissionController(
                ConnectionHarness.ENFORCED_HEAP_HALF, Map.<Signal, SignalSource>of(Signal.HEAP, now -> heap[0]));
        harness = new ConnectionHarness(admission);
        heap[0] = 1.0;
        admission.sample(System.nanoTime());

        harness.clientSends(metadataRequest(1));

        assertFalse(harness.hasUpstream(), "a refused request opens no upstream connection");
        MetadataResponse response = (MetadataResponse)
                KafkaFrames.asClientReads(wrap(harness.clientReceived()), ApiKeys.METADATA, METADATA_VERSION, 1);
        assertTrue(response.data().brokers().isEmpty());
        assertTrue(harness.client.isOpen());
    }

    @Test
    void requestsForNewProducersAndConsumersAreRefusedWithRetriableErrorsWhileTheBreakersAreOpen() {
        harness.close();
        double[] heap = {0.0};
        AdmissionController admission = new AdmissionController(
                ConnectionHarness.ENFORCED_HEAP_HALF, Map.<Signal, SignalSource>of(Signal.HEAP, now -> heap[0]));
        harness = new ConnectionHarness(admission);
        heap[0] = 1.0;
        admission.sample(System.nanoTime());

        harness.clientSends(
                KafkaFrames.request(new InitProducerIdRequestData().setTransactionTimeoutMs(60_000), (short) 5, 1, "p"),
                KafkaFrames.request(
                        new FindCoordinatorRequestData()
                                .setKeyType(CoordinatorType.GROUP.id())
                                .setCoordinatorKeys(List.of("orders-readers")),
                        (short) 4,
                        2,
                        "c"),
                KafkaFrames.request(
                        new FindCoordinatorRequestData()
                                .setKeyType(CoordinatorType.TRANSACTION.id())
                                .setKey("orders-tx"),
                        (short) 3,
                        3,
                        "p"),
                KafkaFrames.request(
                        new JoinGroupRequestData().setGroupId("orders-readers").setProtocolType("consumer"),
                        (short) 9,
                        4,
                        "c"));

        assertFalse(harness.hasUpstream(), "a refused request opens no upstream connection");
        ByteBuf answers = wrap(harness.clientReceived());
        try {
            InitProducerIdResponse initProducerId = (InitProducerIdResponse)
                    KafkaFrames.asClientReads(nextFrame(answers), ApiKeys.INIT_PRODUCER_ID, (short) 5, 1);
            assertEquals(Errors.COORDINATOR_LOAD_IN_PROGRESS, initProducerId.error());
            assertTrue(initProducerId.error().exception() instanceof RetriableException);

            FindCoordinatorResponse group = (FindCoordinatorResponse)
                    KafkaFrames.asClientReads(nextFrame(answers), ApiKeys.FIND_COORDINATOR, (short) 4, 2);
            FindCoordinatorResponseData.Coordinator coordinator =
                    group.data().coordinators().get(0);
            assertEquals("orders-readers", coordinator.key());
            assertEquals(Errors.COORDINATOR_NOT_AVAILABLE.code(), coordinator.errorCode());
            assertTrue(
                    coordinator.errorMessage().startsWith("Sluice admission control: heap"),
                    coordinator.errorMessage());

            FindCoordinatorResponse transaction = (FindCoordinatorResponse)
                    KafkaFrames.asClientReads(nextFrame(answers), ApiKeys.FIND_COORDINATOR, (short) 3, 3);
            assertEquals(Errors.COORDINATOR_NOT_AVAILABLE, transaction.error());
            assertTrue(transaction.data().errorMessage().startsWith("Sluice admission control"));

            JoinGroupResponse join =
                    (JoinGroupResponse) KafkaFrames.asClientReads(nextFrame(answers), ApiKeys.JOIN_GROUP, (short) 9, 4);
            assertEquals(Errors.COORDINATOR_LOAD_IN_PROGRESS, join.error());
            assertEquals(0, answers.readableBytes(), "more answers than requests");
        } finally {
            answers.release();
        }
        assertEquals(
                2,
                admission.rejections(RequestType.NEW_PRODUCER),
                "InitProducerId and a transaction's FindCoordinator");
        assertEquals(2, admission.rejections(RequestType.NEW_CONSUMER), "a group's FindCoordinator and JoinGroup");
        assertTrue(harness.client.isOpen());
    }

    @Test
    void requestsForNewProducersAndConsumersGoAsTheyCameWhenAdmitted() {
        ByteBuf findCoordinator = KafkaFrames.request(
                new FindCoordinatorRequestData()
                        .setKeyType(CoordinatorType.GROUP.id())
                        .setCoordinatorKeys(List.of("g")),
                (short) 6,
                1,
                "c");
        ByteBuf joinGroup = KafkaFrames.request(
                new JoinGroupRequestData().setGroupId("g").setProtocolType("consumer"), (short) 9, 2, "c");
        byte[] expected = bytes(findCoordinator, joinGroup);

        harness.clientSends(findCoordinator, joinGroup);

        assertArrayEquals(expected, harness.brokerReceived());
        assertEquals(0, harness.clientReceived().length);
    }

    @Test
    void aNewConnectionRefusedByAdmissionControlIsClosedAtOnce() {
        harness.close();
        harness = new ConnectionHarness(ConnectionHarness.refusingEverything());

        assertFalse(harness.client.isOpen());
        assertEquals(0, harness.clientReceived().length, "nothing made up for the client");
    }

    @Test
    void tooManyRequestsInFlightPauseReadingUntilHalfAreAnswered() {
        int pauseAt = KafkaConnection.PAUSE_IN_FLIGHT;
        ByteBuf[] requests = new ByteBuf[pauseAt + 3];
        for (int i = 0; i < requests.length; i++) {
            requests[i] = metadataRequest(i);
        }
        harness.clientSends(requests);

        assertFalse(harness.client.config().isAutoRead(), "still reading with " + pauseAt + " requests in flight");
        assertEquals(pauseAt, frames(harness.brokerReceived()), "requests decoded past the limit");

        for (int i = 0; i <= pauseAt / 2; i++) {
            harness.brokerSends(KafkaFrames.response(BrokerResponses.metadata(METADATA_VERSION), METADATA_VERSION, i));
        }

        assertTrue(harness.client.config().isAutoRead());
        assertEquals(3, frames(harness.brokerReceived()), "the buffered requests once reading resumed");
    }

    @Test
    void drainStopsTakingRequestsAnswersThoseInFlightThenCloses() {
        harness.clientSends(metadataRequest(1));
        harness.brokerReceived();

        Drain.request(harness.client);
        harness.settle();
        harness.clientSends(metadataRequest(2));

        assertEquals(0, harness.brokerReceived().length, "a request taken while draining");
        assertTrue(harness.client.isOpen(), "closed with a request in flight");
        harness.brokerSends(KafkaFrames.response(BrokerResponses.metadata(METADATA_VERSION), METADATA_VERSION, 1));
        KafkaFrames.asClientReads(wrap(harness.clientReceived()), ApiKeys.METADATA, METADATA_VERSION, 1);
        assertFalse(harness.client.isOpen());
    }

    @Test
    void aConnectionWithoutAnAnswerInTimeIsClosedAndOneAnsweredIsNot() {
        harness.advance(ConnectionHarness.HANDSHAKE_TIMEOUT.minusMillis(1));
        assertTrue(harness.client.isOpen());
        harness.advance(Duration.ofMillis(1));
        assertFalse(harness.client.isOpen());
        assertEquals(Map.of(HandshakeDeadline.REASON, 1L), harness.stats.protocolErrors());

        harness.close();
        harness = new ConnectionHarness();
        harness.clientSends(metadataRequest(1));
        harness.brokerSends(KafkaFrames.response(BrokerResponses.metadata(METADATA_VERSION), METADATA_VERSION, 1));
        harness.advance(ConnectionHarness.HANDSHAKE_TIMEOUT.multipliedBy(2));
        assertTrue(harness.client.isOpen());
    }

    @Test
    void unknownApisVersionsSluiceDoesNotHandleAndOversizedFramesCloseTheConnection() {
        ByteBuffer unknown = ByteBuffer.allocate(14)
                .putInt(10)
                .putShort((short) 9_999)
                .putShort((short) 0)
                .putInt(1)
                .putShort((short) -1);
        harness.clientSends(unknown.array());
        assertFalse(harness.client.isOpen());

        harness.close();
        harness = new ConnectionHarness();
        harness.clientSends(ByteBuffer.allocate(4)
                .putInt(ConnectionHarness.MAX_REQUEST_SIZE + 1)
                .array());
        assertFalse(harness.client.isOpen());

        harness.close();
        harness = new ConnectionHarness();
        ByteBuf oldProduce = produceRequest(1, (short) 1);
        oldProduce.setShort(6, 2);
        harness.clientSends(oldProduce);
        assertFalse(harness.client.isOpen());
        assertFalse(harness.hasUpstream(), "nothing forwarded");
    }

    @Test
    void withTheBrokersDefaultLimitARequestOfTwoGibibytesIsTooLargeAsSoonAsItsSizeIsIn() {
        harness.close();
        harness = new ConnectionHarness(KafkaSettings.DEFAULT_MAX_REQUEST_SIZE);

        harness.clientSends(
                ByteBuffer.allocate(8).putInt(Integer.MAX_VALUE).putInt(7).array());

        assertFalse(harness.client.isOpen());
        assertEquals(Map.of("frame_too_large", 1L), harness.stats.protocolErrors());
        assertFalse(harness.hasUpstream(), "nothing forwarded");
    }

    @Test
    void requestsAfterOneThatClosedTheConnectionInTheSameReadAreNeitherForwardedNorAnswered() {
        harness.clientSends(metadataRequest(1));
        harness.brokerReceived();
        ByteBuf oldProduce = produceRequest(2, (short) 1);
        oldProduce.setShort(6, 2);
        ByteBuf newerApiVersions = KafkaFrames.request(new ApiVersionsRequestData(), (short) 4, 4, "client");
        newerApiVersions.setShort(6, HandledApi.API_VERSIONS.maxVersion() + 1);

        // Found by the pipeline fuzz test: the request after the bad one was remembered as in
        // flight, so Sluice's own answer to the next waited for it, for ever, and leaked.
        harness.clientSends(oldProduce, metadataRequest(3), newerApiVersions);

        assertFalse(harness.client.isOpen());
        assertEquals(0, harness.brokerReceived().length);
        assertEquals(0, harness.clientReceived().length);
    }

    @Test
    void aNodesPortForwardsToTheNodeOnceItIsKnownAndClosesItsConnectionsBefore() {
        harness.close();
        ConnectionHarness shared = new ConnectionHarness();
        harness = new ConnectionHarness(ConnectionHarness.admittingEverything(), UpstreamRoute.node(7, shared.nodes));
        harness.clientSends(metadataRequest(1));
        assertFalse(harness.client.isOpen(), "a connection to a node no response named");
        assertFalse(harness.hasUpstream());
        assertEquals(1, harness.stats.upstreamConnectFailures());

        harness.close();
        shared.nodes.nodeSeen(7, "127.0.0.1", 9099);
        harness = new ConnectionHarness(ConnectionHarness.admittingEverything(), UpstreamRoute.node(7, shared.nodes));
        harness.clientSends(metadataRequest(1));
        assertTrue(harness.client.isOpen());
        assertEquals(1, frames(harness.brokerReceived()));
        shared.close();
    }

    @Test
    void anUnreachableBootstrapServerIsPassedOverForTheNext() {
        harness.close();
        harness = new ConnectionHarness(
                UpstreamRoute.bootstrap(List.of(
                        new BrokerEndpoint("127.0.0.1", RefusingSocketChannel.REFUSED_PORT),
                        ConnectionHarness.BOOTSTRAP_SERVER)),
                null);
        ByteBuf request = metadataRequest(1);
        byte[] expected = bytes(request);

        harness.clientSends(request);

        assertEquals(2, harness.upstreamsOpened());
        assertEquals(1, harness.stats.upstreamConnectFailures());
        assertArrayEquals(expected, harness.brokerReceived(), "the request went to the next server");
        assertTrue(harness.client.isOpen());
    }

    @Test
    void aConnectionWhoseEveryBootstrapServerIsUnreachableCloses() {
        harness.close();
        harness = new ConnectionHarness(
                UpstreamRoute.bootstrap(List.of(new BrokerEndpoint("127.0.0.1", RefusingSocketChannel.REFUSED_PORT))),
                null);

        harness.clientSends(metadataRequest(1));

        assertFalse(harness.client.isOpen());
        assertEquals(1, harness.upstreamsOpened());
        assertEquals(1, harness.stats.upstreamConnectFailures());
        assertEquals(0, harness.clientReceived().length, "nothing made up for the client");
    }

    @Test
    void aFailedTlsHandshakeWithOneBootstrapServerTriesTheNextAndWithTheLastCloses() {
        harness.close();
        ReloadingSslContext upstreamTls =
                ReloadingSslContext.load("the test brokers", new UpstreamTlsFiles(null), SslProvider.JDK, () -> {});
        harness = new ConnectionHarness(
                UpstreamRoute.bootstrap(
                        List.of(ConnectionHarness.BOOTSTRAP_SERVER, new BrokerEndpoint("127.0.0.1", 9093))),
                upstreamTls);
        harness.clientSends(metadataRequest(1));
        assertTrue(harness.brokerReceived().length > 0, "a ClientHello to the first server");
        EmbeddedSocketChannel first = harness.upstream();

        notTls(first);

        assertEquals(2, harness.upstreamsOpened(), "the next server tried");
        assertEquals(1, harness.stats.upstreamConnectFailures());
        assertTrue(harness.brokerReceived().length > 0, "a ClientHello to the next server");
        assertTrue(harness.client.isOpen(), "waiting for the handshake with the next server");
        first.finishAndReleaseAll();

        notTls(harness.upstream());

        assertEquals(2, harness.upstreamsOpened());
        assertEquals(2, harness.stats.upstreamConnectFailures());
        assertFalse(harness.client.isOpen(), "open with no server left");
        assertEquals(0, harness.clientReceived().length, "nothing made up for the client");
    }

    /** The broker answers a ClientHello as a plaintext HTTP server would. */
    private void notTls(EmbeddedSocketChannel upstream) {
        upstream.writeInbound(harness.alloc
                .heapBuffer()
                .writeBytes("HTTP/1.1 400 Bad Request\r\n\r\n".getBytes(StandardCharsets.US_ASCII)));
        harness.settle();
    }

    private static int frames(byte[] stream) {
        ByteBuffer buffer = ByteBuffer.wrap(stream);
        int count = 0;
        while (buffer.remaining() >= 4) {
            buffer.position(buffer.position() + 4 + buffer.getInt(buffer.position()));
            count++;
        }
        return count;
    }

    /**
     * Limits topic slow to 10 records a second ({@code reject}), spends that on a first request, then
     * sends one for slow and fast: returns that request as the broker got it (slow cut off).
     */
    private ProduceRequestData slowCutFromTheSecondRequest(short version) {
        harness.limit(SLOW, Limit.publish(new RateLimit(10.0, null, null, null)).withOnExceed(OnExceed.REJECT));
        harness.clientSends(RecordFrames.produceRequest(version, (short) -1, 1, "client", part("slow", 50)));
        ByteBuf first = wrap(harness.brokerReceived());
        harness.brokerSends(KafkaFrames.response(
                RecordFrames.produceResponse(RecordFrames.readProduce(first, version), version), version, 1));
        harness.clientReceived();

        harness.clientSends(
                RecordFrames.produceRequest(version, (short) -1, 2, "client", part("slow", 5), part("fast", 5)));
        return RecordFrames.readProduce(wrap(harness.brokerReceived()), version);
    }

    /** The client's answer, as {@code topic:ERROR} of each topic's first partition. */
    private static List<String> outcomes(ProduceResponseData answer) {
        return answer.responses().stream()
                .map(t -> t.name() + ":"
                        + Errors.forCode(t.partitionResponses().get(0).errorCode()))
                .toList();
    }

    @Test
    void aTopicOverItsQuotaIsCutFromTheRequestAndAnsweredInTheBrokersResponse() {
        ProduceRequestData forwarded = slowCutFromTheSecondRequest(PRODUCE_VERSION);
        assertEquals(
                List.of("fast"),
                forwarded.topicData().stream()
                        .map(ProduceRequestData.TopicProduceData::name)
                        .toList());
        harness.brokerSends(
                KafkaFrames.response(RecordFrames.produceResponse(forwarded, PRODUCE_VERSION), PRODUCE_VERSION, 2));
        ProduceResponseData answer = RecordFrames.readProduceResponse(wrap(harness.clientReceived()), PRODUCE_VERSION);
        assertEquals(List.of("slow:POLICY_VIOLATION", "fast:NONE"), outcomes(answer));
    }

    @Test
    void aResponseSluiceMergedItsAnswersIntoIsRewrittenForTheClientAsWell() {
        short version = 12;
        ProduceRequestData forwarded = slowCutFromTheSecondRequest(version);
        ProduceResponseData broker = RecordFrames.produceResponse(forwarded, version);
        // The leader of fast-0 moved: the broker names the new one (KIP-951).
        broker.nodeEndpoints()
                .add(new ProduceResponseData.NodeEndpoint()
                        .setNodeId(2)
                        .setHost(BrokerResponses.host(2))
                        .setPort(BrokerResponses.port(2)));
        harness.brokerSends(KafkaFrames.response(broker, version, 2));

        ProduceResponseData answer = RecordFrames.readProduceResponse(wrap(harness.clientReceived()), version);
        assertEquals(List.of("slow:POLICY_VIOLATION", "fast:NONE"), outcomes(answer), "Sluice's answer merged in");
        ProduceResponseData.NodeEndpoint leader =
                answer.nodeEndpoints().iterator().next();
        assertEquals(ConnectionHarness.SLUICE_HOST, leader.host(), "and the merged response rewritten after");
        assertEquals(ConnectionHarness.NODE_PORT_BASE + 2, leader.port());
    }

    @Test
    void notifyRaisesTheThrottleTimeAndTakesNoRequestUntilTheBucketRecovered() {
        harness.limit(SLOW, Limit.publish(new RateLimit(10.0, null, null, null)).withOnExceed(OnExceed.NOTIFY));
        harness.clientSends(
                RecordFrames.produceRequest(PRODUCE_VERSION, (short) -1, 1, "client", part("slow", 50)),
                RecordFrames.produceRequest(PRODUCE_VERSION, (short) -1, 2, "client", part("slow", 5)));
        harness.brokerReceived();
        for (int correlationId = 1; correlationId <= 2; correlationId++) {
            harness.brokerSends(KafkaFrames.response(
                    RecordFrames.produceResponse(
                            RecordFrames.produce(PRODUCE_VERSION, (short) -1, part("slow", 1)), PRODUCE_VERSION),
                    PRODUCE_VERSION,
                    correlationId));
        }
        ByteBuf answers = wrap(harness.clientReceived());
        answers.skipBytes(answers.getInt(0) + 4);
        int throttleMillis =
                RecordFrames.readProduceResponse(answers, PRODUCE_VERSION).throttleTimeMs();
        assertEquals(1_000, throttleMillis, "4.5 s owed, at most a second told");

        harness.clientSends(metadataRequest(3));
        assertEquals(0, harness.brokerReceived().length, "a request taken while muted");
        harness.advance(Duration.ofMillis(4_300));
        assertEquals(0, harness.brokerReceived().length, "nor once the time told is over, until the bucket recovered");
        harness.advance(Duration.ofMillis(300));
        assertTrue(harness.brokerReceived().length > 0, "the request taken once the bucket recovered");
    }

    @Test
    void requestsOverTheClientIdsRateGoOnWithAThrottleTimeAndTheNextWaitsItOut() {
        harness.limit(
                new ScopeRef(KafkaScopes.CLIENT, "*"),
                Limit.requests(new EventRate(2.0, 1.0)).withOnExceed(OnExceed.REJECT));
        ByteBuf[] storm = {metadataRequest(1), metadataRequest(2), metadataRequest(3)};
        byte[] expected = bytes(storm);
        harness.clientSends(storm);
        assertArrayEquals(
                expected,
                harness.brokerReceived(),
                "the request over the rate goes to the broker too, charged: the answer is the broker's");
        List<Integer> throttleTimes = metadataAnswersThrottleTimes(3);
        assertEquals(List.of(0, 0), throttleTimes.subList(0, 2));
        assertTrue(
                throttleTimes.get(2) >= 500 && throttleTimes.get(2) <= 501,
                "half a second until the bucket admits one more: " + throttleTimes);
        ThrottledClient throttled = harness.services.throttles().throttled().get(0);
        assertEquals("client", throttled.scope());
        assertEquals("work_requests", throttled.reason());
        assertEquals("notify", throttled.action(), "KIP-219's way whatever onExceed says");
        assertEquals("client", throttled.identity().get("clientId"));

        harness.clientSends(metadataRequest(4));
        assertEquals(0, harness.brokerReceived().length, "the next request waits the throttle time out");
        harness.advance(Duration.ofMillis(600));
        assertTrue(harness.brokerReceived().length > 0);
        assertTrue(harness.services.throttles().throttled().isEmpty());
    }

    @Test
    void aRequestIsChargedOnceToEachLimitedPrefixOfTheTopicsItNames() {
        harness.limit(new ScopeRef(KafkaScopes.PREFIX, "hot."), Limit.requests(new EventRate(2.0, 1.0)));
        harness.clientSends(
                metadataRequest(1, "hot.orders", "hot.orders", "hot.payments"),
                metadataRequest(2, "cool.orders"),
                metadataRequest(3, "hot.orders"),
                metadataRequest(4, "hot.orders"));
        assertEquals(4, frames(harness.brokerReceived()));
        List<Integer> throttleTimes = metadataAnswersThrottleTimes(4);
        assertEquals(
                List.of(0, 0, 0),
                throttleTimes.subList(0, 3),
                "three topics under the prefix in one request cost it one; a topic under none costs it nothing");
        assertTrue(throttleTimes.get(3) >= 500, "the third about the prefix is over its 2 a second: " + throttleTimes);
        ThrottledClient throttled = harness.services.throttles().throttled().get(0);
        assertEquals("prefix", throttled.scope());
        assertEquals("work_requests", throttled.reason());
    }

    /**
     * The broker answers Metadata requests 1 to {@code count}; the throttle time of each answer as
     * the client reads it, in order.
     */
    private List<Integer> metadataAnswersThrottleTimes(int count) {
        for (int correlationId = 1; correlationId <= count; correlationId++) {
            harness.brokerSends(
                    KafkaFrames.response(BrokerResponses.metadata(METADATA_VERSION), METADATA_VERSION, correlationId));
        }
        ByteBuf answers = wrap(harness.clientReceived());
        List<Integer> throttleTimes = new ArrayList<>();
        for (int correlationId = 1; correlationId <= count; correlationId++) {
            throttleTimes.add(((MetadataResponse) KafkaFrames.asClientReads(
                            nextFrame(answers), ApiKeys.METADATA, METADATA_VERSION, correlationId))
                    .throttleTimeMs());
        }
        return throttleTimes;
    }

    private static Part part(String topic, int records) {
        return new Part(topic, null, 0, RecordFrames.batch(records, 10));
    }

    private static ByteBuf wrap(byte[] bytes) {
        return Unpooled.wrappedBuffer(bytes);
    }

    /** The next whole frame of {@code frames}, as a slice. */
    private static ByteBuf nextFrame(ByteBuf frames) {
        return frames.readSlice(4 + frames.getInt(frames.readerIndex()));
    }

    /** A Metadata request under client id {@code client} about {@code topics} (none: the brokers only). */
    private static ByteBuf metadataRequest(int correlationId, String... topics) {
        List<MetadataRequestData.MetadataRequestTopic> named = new ArrayList<>();
        for (String topic : topics) {
            named.add(new MetadataRequestData.MetadataRequestTopic().setName(topic));
        }
        return KafkaFrames.request(
                new MetadataRequestData().setTopics(named), METADATA_VERSION, correlationId, "client");
    }

    private static ByteBuf produceRequest(int correlationId, short acks) {
        return KafkaFrames.request(
                new ProduceRequestData().setAcks(acks).setTimeoutMs(1000), (short) 9, correlationId, "client");
    }
}
