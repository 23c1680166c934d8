package io.sluice.admin.status;

import io.netty.handler.codec.http.HttpResponseStatus;
import io.sluice.admin.http.ApiRequest;
import io.sluice.admin.http.ApiResponse;
import io.sluice.status.TopicActivity;
import io.sluice.status.TopicMeter;

/**
 * {@code GET /api/v1/topics}: the live figures of every topic seen recently, busiest publisher
 * first, as a JSON array of {@link io.sluice.status.TopicFigures}.
 */
public final class TopicsResource {

    private final TopicActivity activity;

    public TopicsResource(TopicActivity activity) {
        this.activity = activity;
    }

    public ApiResponse get(ApiRequest request) {
        return ApiResponse.json(
                HttpResponseStatus.OK,
                activity.meters().stream().map(TopicMeter::figures).toList());
    }
}
