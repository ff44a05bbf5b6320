package io.ratatosk.bench.ldbc.store;

/**
 * The paged files of a graph store, each an array of fixed-size records on 8 KiB pages (a record
 * never spans two pages), and the arithmetic from a record id to its page and offset. The ordinal
 * is the file's id in recorded page traces.
 */
public enum StoreFile {
    NODES("nodes.store", NodeRecord.SIZE),
    RELATIONSHIPS("relationships.store", RelationshipRecord.SIZE),
    PROPERTIES("properties.store", PropertyRecord.SIZE),
    STRINGS("strings.store", StringBlock.SIZE),
    ID_INDEX("ldbc-id.index", IdIndexLayout.SLOT_SIZE);

    /** The page size of every store file. */
    public static final int PAGE_SIZE = 8192;

    private final String fileName;
    private final int recordSize;
    private final int perPage;

    StoreFile(String fileName, int recordSize) {
        this.fileName = fileName;
        this.recordSize = recordSize;
        this.perPage = PAGE_SIZE / recordSize;
    }

    public String fileName() {
        return fileName;
    }

    public int recordSize() {
        return recordSize;
    }

    public int recordsPerPage() {
        return perPage;
    }

    long pageOf(long recordId) {
        return recordId / perPage;
    }

    int offsetOf(long recordId) {
        return (int) (recordId % perPage) * recordSize;
    }

    /** The file id this file's pages carry in a recorded page trace. */
    public int traceFileId() {
        return ordinal();
    }
}
