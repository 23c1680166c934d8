package io.sluice.kafka.codec;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.sluice.relay.FrameView;
import org.apache.kafka.common.message.FindCoordinatorRequestData;
import org.apache.kafka.common.message.FindCoordinatorResponseData;
import org.apache.kafka.common.message.InitProducerIdResponseData;
import org.apache.kafka.common.message.JoinGroupResponseData;
import org.apache.kafka.common.protocol.ApiMessage;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.FindCoordinatorRequest;

import java.util.ArrayList;
import java.util.List;

/**
 * Sluice's answers to the requests that start new work (a new producer, a new consumer in a group)
 * when admission control refuses them: InitProducerId, FindCoordinator and JoinGroup, each answered
 * with a retriable error that every client backs off from and retries, as it does when a
 * coordinator is starting.
 *
 * <ul>
 *   <li>FindCoordinator: {@code COORDINATOR_NOT_AVAILABLE} with Sluice's message (from v1; from v4
 *       for each key asked about);
 *   <li>InitProducerId and JoinGroup: {@code COORDINATOR_LOAD_IN_PROGRESS}, which no version lets
 *       carry a message, so the refusal is counted and logged instead.
 * </ul>
 */
public final class NewWorkRefusal {

    private static final String UNREADABLE = "bad_find_coordinator";

    private NewWorkRefusal() {}

    /** Whether {@code apiKey} is one of the requests that start new work. */
    public static boolean startsNewWork(short apiKey) {
        return apiKey == HandledApi.INIT_PRODUCER_ID.key().id
                || apiKey == HandledApi.FIND_COORDINATOR.key().id
                || apiKey == HandledApi.JOIN_GROUP.key().id;
    }

    /**
     * Whether the request {@code header} was read from starts a producer's work: InitProducerId, or a
     * FindCoordinator for a transaction coordinator (a group's or a share group's starts a consumer's).
     * Reads a FindCoordinator's body (allocates; these come once per client and coordinator change);
     * an unreadable one raises a {@code MalformedFrameException}.
     */
    public static boolean startsProducer(FrameView frame, RequestHeader header) {
        if (header.apiKey() == HandledApi.INIT_PRODUCER_ID.key().id) {
            return true;
        }
        if (header.apiKey() != HandledApi.FIND_COORDINATOR.key().id) {
            return false;
        }
        return findCoordinator(frame, header).keyType() == FindCoordinatorRequest.CoordinatorType.TRANSACTION.id();
    }

    /**
     * The refusal of the request {@code header} was read from ({@code frame}), one of
     * {@link #startsNewWork}'s, saying {@code message} where the version has room for it. The caller
     * owns the answer; {@code frame} is left as it was.
     */
    public static ByteBuf answer(ByteBufAllocator alloc, FrameView frame, RequestHeader header, String message) {
        short version = header.apiVersion();
        ApiMessage body;
        if (header.apiKey() == HandledApi.INIT_PRODUCER_ID.key().id) {
            body = new InitProducerIdResponseData().setErrorCode(Errors.COORDINATOR_LOAD_IN_PROGRESS.code());
        } else if (header.apiKey() == HandledApi.JOIN_GROUP.key().id) {
            body = new JoinGroupResponseData().setErrorCode(Errors.COORDINATOR_LOAD_IN_PROGRESS.code());
        } else if (header.apiKey() == HandledApi.FIND_COORDINATOR.key().id) {
            body = coordinatorNotAvailable(findCoordinator(frame, header), version, message);
        } else {
            throw new IllegalArgumentException("API key " + header.apiKey() + " starts no new work");
        }
        return MessageFrames.response(alloc, header.correlationId(), body, version);
    }

    private static FindCoordinatorRequestData findCoordinator(FrameView frame, RequestHeader header) {
        return MessageFrames.read(
                new FindCoordinatorRequestData(), frame, header.bodyIndex(), header.apiVersion(), UNREADABLE);
    }

    /** Up to v3 one coordinator with its error at the top; from v4 one entry per key asked about. */
    private static FindCoordinatorResponseData coordinatorNotAvailable(
            FindCoordinatorRequestData request, short version, String message) {
        short error = Errors.COORDINATOR_NOT_AVAILABLE.code();
        FindCoordinatorResponseData response = new FindCoordinatorResponseData();
        if (version < 4) {
            return response.setErrorCode(error)
                    .setErrorMessage(message)
                    .setNodeId(-1)
                    .setHost("")
                    .setPort(-1);
        }
        List<FindCoordinatorResponseData.Coordinator> coordinators = new ArrayList<>();
        for (String key : request.coordinatorKeys()) {
            coordinators.add(new FindCoordinatorResponseData.Coordinator()
                    .setKey(key)
                    .setNodeId(-1)
                    .setHost("")
                    .setPort(-1)
                    .setErrorCode(error)
                    .setErrorMessage(message));
        }
        return response.setCoordinators(coordinators);
    }
}
