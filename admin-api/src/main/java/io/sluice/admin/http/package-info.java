/**
 * The HTTP side of the admin API: the route table, the request and response shapes handlers
 * see, and the small Netty handlers that sit in front of the router (body limit, malformed
 * requests, bearer token). Nothing here knows limits or metrics.
 */
package io.sluice.admin.http;
