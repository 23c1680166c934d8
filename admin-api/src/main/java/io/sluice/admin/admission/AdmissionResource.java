package io.sluice.admin.admission;

import io.netty.handler.codec.http.HttpResponseStatus;
import io.sluice.admin.http.ApiException;
import io.sluice.admin.http.ApiRequest;
import io.sluice.admin.http.ApiResponse;
import io.sluice.admission.AdmissionController;
import io.sluice.admission.AdmissionJson;
import io.sluice.settings.InvalidSettingsException;

/**
 * GET and PUT of admission control, {@code /api/v1/admission} (docs/REFERENCE.md, "Admission control"): its status, and a
 * partial settings update put in force at once. Settings changed here are not persisted; a
 * restart goes back to the configured ones.
 */
public final class AdmissionResource {

    private final AdmissionController controller;

    public AdmissionResource(AdmissionController controller) {
        this.controller = controller;
    }

    /** The status: mode, breakers, signals, settings and recent transitions. */
    public ApiResponse get(ApiRequest request) {
        return ApiResponse.json(HttpResponseStatus.OK, AdmissionJson.write(controller.status()));
    }

    /**
     * Applies the fields the body names onto the settings in force and answers the new status. A
     * body with any fault changes nothing.
     */
    public synchronized ApiResponse put(ApiRequest request) {
        // Synchronized so that two partial updates cannot start from the same settings and lose one.
        try {
            controller.update(AdmissionJson.parseSettings(request.body(), controller.settings()));
        } catch (InvalidSettingsException e) {
            throw ApiException.badRequest(e.getMessage());
        }
        return get(request);
    }
}
