/** The adaptive limits' state over REST. */
package io.sluice.admin.adaptive;
