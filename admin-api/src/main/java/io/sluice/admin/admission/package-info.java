/**
 * The admission control endpoint ({@code /api/v1/admission}). It only maps requests onto the
 * core's {@link io.sluice.admission.AdmissionController} and
 * {@link io.sluice.admission.AdmissionJson}, which hold the state and the rules.
 */
package io.sluice.admin.admission;
