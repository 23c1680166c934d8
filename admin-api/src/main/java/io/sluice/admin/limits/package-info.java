/**
 * The limits endpoints ({@code /api/v1/limits/**}). Every change goes through the core's
 * {@link io.sluice.limits.LimitsStore}, which validates, persists and then puts it in force; these
 * handlers only map paths and bodies onto it and answer once it has returned.
 */
package io.sluice.admin.limits;
