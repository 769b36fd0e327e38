import CLinux
import Glibc
import TiltScrollCommon

/// How the daemon's heap gives memory back.
///
/// glibc serves a large allocation with its own mmap() and unmaps it on
/// free, but raises that threshold to the size of each such block freed
/// (up to 32 MB), so the next ones come from the heap, whose freed pages stay
/// resident. A daemon that runs all day then keeps, for good, the largest
/// message anyone ever sent it: a 1 MB string on the bus is 1 MB more
/// resident (seen under QEMU after bursts of such messages: RssAnon 1,980
/// kB, then 2,964 kB, a megabyte string's worth more). With a fixed
/// threshold, which also stops the raising, buffers of 128 KiB and more are
/// unmapped as soon as sd-bus frees them (the same bursts: 1,240 kB, then
/// 1,248 kB).
/// The loop allocates nothing per sample, so nothing else changes.
enum HeapPolicy {
    /// The glibc default, fixed.
    static let mmapThreshold: Int32 = 128 * 1024

    /// Fixes the threshold; on failure the heap keeps glibc's default policy.
    static func returnLargeBuffersAtOnce() {
        if mallopt(M_MMAP_THRESHOLD, mmapThreshold) == 0 {
            Log.debug("mallopt(M_MMAP_THRESHOLD) refused: large buffers stay in the heap once freed")
        }
    }
}
