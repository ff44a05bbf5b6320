package io.ratatosk.pagecache;

/**
 * Told by the {@link FileRegistry} when a file is newly mapped and when it is about to be unmapped, under
 * the registry's mapping lock: it must be quick, take no lock the registry's callers may hold while they
 * wait for that one, and never throw.
 */
interface MappingListener {
    MappingListener NONE = new MappingListener() {
        @Override
        public void mapped(FileMapping mapping) {
        }

        @Override
        public void unmapping(FileMapping mapping) {
        }
    };

    /** {@code mapping} was just created and registered: the first map of its file. */
    void mapped(FileMapping mapping);

    /** The last mapping of {@code mapping}'s file is going: it is about to be flushed and unmapped (which may yet be refused). */
    void unmapping(FileMapping mapping);

    /** The unmap {@link #unmapping} announced was refused, or failed before it unmapped the file: it stays mapped. */
    default void unmapRefused(FileMapping mapping) {
    }
}
