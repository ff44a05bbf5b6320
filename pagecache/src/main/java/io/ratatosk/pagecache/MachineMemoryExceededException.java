package io.ratatosk.pagecache;

/**
 * Memory asked for ({@code pagecache.memory} with the frames' metadata, together with the other caches of this JVM, or
 * the NVM tier's {@code pagecache.nvm.capacity}) is more than the machine (or its container) has. Refused when the cache
 * or the tier opens, before anything is allocated: the allocation itself would succeed, as memory is only promised
 * until touched, and the host would be swapped out or killed by the kernel as it filled. The message names the flag and
 * the sizes. A configuration that is right elsewhere, so not an {@link InvalidConfigurationException}.
 */
public class MachineMemoryExceededException extends IllegalStateException {
    private static final long serialVersionUID = 1L;

    public MachineMemoryExceededException(String message) {
        super(message);
    }
}
