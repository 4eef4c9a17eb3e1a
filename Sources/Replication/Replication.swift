import Store

/// Replication: clocks, change sets, merge, dedup, permissions, wire protocol and TLS.
public enum ReplicationModule {}
