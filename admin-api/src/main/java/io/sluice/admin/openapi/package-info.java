/** The OpenAPI 3 description of the admin API, served at {@code /api/v1/openapi.json}. */
package io.sluice.admin.openapi;
