package io.sluice.pulsar.scopes;

import io.sluice.settings.InvalidSettingsException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Pulsar's rules for topic, namespace and tenant names. */
class PulsarNamesTest {

    @Test
    void parsesAPartition() {
        TopicName name = TopicName.parse("persistent://t/n/x-partition-3");
        assertTrue(name.persistent());
        assertEquals("persistent", name.domain());
        assertEquals("t", name.tenant());
        assertEquals("n", name.namespace());
        assertEquals("t/n", name.namespaceName());
        assertEquals("x-partition-3", name.localName());
        assertEquals(3, name.partitionIndex());
        assertTrue(name.isPartition());
        assertEquals("persistent://t/n/x", name.baseName());
        assertEquals("persistent://t/n/x-partition-3", name.toString());
    }

    @Test
    void parsesAPlainNonPersistentTopic() {
        TopicName name = TopicName.parse("non-persistent://public/default/orders");
        assertFalse(name.persistent());
        assertEquals("non-persistent", name.domain());
        assertEquals(-1, name.partitionIndex());
        assertFalse(name.isPartition());
        assertEquals("non-persistent://public/default/orders", name.baseName());
        assertEquals("non-persistent://public/default/orders", name.toString());
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "x-partition-",
                "x-partition-a",
                "x-partition--1",
                "-partition-3",
                "x-partition-99999999999",
                "x-partition-1x"
            })
    void readsOddSuffixesAsNoPartition(String localName) {
        TopicName name = TopicName.parse("persistent://t/n/" + localName);
        assertEquals(-1, name.partitionIndex());
        assertEquals(name.toString(), name.baseName());
    }

    @Test
    void usesTheLastPartitionSuffix() {
        TopicName name = TopicName.parse("persistent://t/n/a-partition-1-partition-2");
        assertEquals(2, name.partitionIndex());
        assertEquals("persistent://t/n/a-partition-1", name.baseName());
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "",
                "persistent://",
                "persistent://t/n",
                "persistent://t/n/",
                "persistent://t//x",
                "persistent:///n/x",
                "persistent://t/n/x/y",
                "persistent://t/c/n/x",
                "http://t/n/x",
                "t/n/x",
                "persistent://t/n/x\n",
                "persistent://t?/n/x"
            })
    void rejectsBadTopicNames(String name) {
        InvalidSettingsException e = assertThrows(InvalidSettingsException.class, () -> TopicName.parse(name));
        assertEquals("", e.path());
        assertTrue(e.problem().startsWith("must be a topic name persistent://tenant/namespace/topic"), e.getMessage());
    }

    @Test
    void refusesAnInconsistentTopicRecord() {
        assertThrows(InvalidSettingsException.class, () -> new TopicName(true, "t", "n", "x-partition-1", -1));
        assertThrows(InvalidSettingsException.class, () -> new TopicName(true, "t", "n", "x", 0));
        assertThrows(InvalidSettingsException.class, () -> TopicName.parse(null));
    }

    @Test
    void parsesNamespacesAndTenants() {
        NamespaceName namespace = NamespaceName.parse("my-tenant/ns.v2");
        assertEquals("my-tenant", namespace.tenant());
        assertEquals("ns.v2", namespace.localName());
        assertEquals("my-tenant/ns.v2", namespace.toString());
        assertEquals("a=b:c_d", TenantName.parse("a=b:c_d").toString());
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "t", "/n", "t/", "t/n/x", "t n/x", "t/n\u00e9"})
    void rejectsBadNamespaceNames(String name) {
        InvalidSettingsException e = assertThrows(InvalidSettingsException.class, () -> NamespaceName.parse(name));
        assertEquals("must be a namespace name tenant/namespace, got \"" + name + "\"", e.getMessage());
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "a/b", "a b", "persistent://a", "a\"b"})
    void rejectsBadTenantNames(String name) {
        InvalidSettingsException e = assertThrows(InvalidSettingsException.class, () -> TenantName.parse(name));
        assertTrue(e.getMessage().startsWith("must be a tenant name"), e.getMessage());
    }

    @Test
    void quotesNamesInMessagesAsJson() {
        assertEquals(
                "must be a tenant name of letters, digits and _-=:., got \"a\\\"b\"",
                assertThrows(InvalidSettingsException.class, () -> TenantName.parse("a\"b"))
                        .getMessage());
        assertThrows(InvalidSettingsException.class, () -> NamespaceName.parse(null));
        assertThrows(InvalidSettingsException.class, () -> TenantName.parse(null));
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "orders",
                "/orders",
                "//orders/",
                "public/default/orders",
                "persistent://public/default/orders",
                "PERSISTENT://public/default/orders",
                "Persistent://public/default/orders"
            })
    void resolvesANameAsTheBrokerReadsIt(String name) {
        assertEquals(
                "persistent://public/default/orders", TopicName.resolve(name).toString());
    }

    @Test
    void resolvesANonPersistentDomainIgnoringCase() {
        assertEquals(
                "non-persistent://t/n/x-partition-1",
                TopicName.resolve("NON-PERSISTENT://t/n/x-partition-1").toString());
        assertEquals(1, TopicName.resolve("t/n/x-partition-1").partitionIndex());
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "",
                "/",
                "public/orders",
                "a/b/c/d",
                "/t/n/x",
                "t//n/x",
                "t/n/ ",
                "persistent://t/cluster/n/x",
                "persistent://t/n/",
                "persistent:///t/n/x",
                "queue://t/n/x",
                "://t/n/x"
            })
    void refusesWhatTheBrokerRefusesAndLegacyNamesWithACluster(String name) {
        assertThrows(InvalidSettingsException.class, () -> TopicName.resolve(name));
    }
}
