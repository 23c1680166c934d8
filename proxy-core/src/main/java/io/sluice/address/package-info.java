/**
 * Client addresses as limits name them: CIDR blocks ({@link io.sluice.address.CidrBlock}), parsed
 * without a name lookup and kept canonical. Knows no protocol and no Netty.
 */
package io.sluice.address;
