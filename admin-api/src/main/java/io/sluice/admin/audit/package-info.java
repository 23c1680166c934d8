/**
 * The audit of the admin API: who changed which limit or admission setting when, from what to
 * what (docs/REFERENCE.md, "Audit").
 */
package io.sluice.admin.audit;
