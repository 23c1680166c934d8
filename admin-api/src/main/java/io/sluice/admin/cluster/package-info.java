/** How this Sluice shares its limits with others: {@code GET /api/v1/cluster}. */
package io.sluice.admin.cluster;
