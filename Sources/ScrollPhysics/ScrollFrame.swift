/// One frame of scroll output: what goes into a single uinput write.
///
/// Hi-res values are in 1/120 of a detent (`REL_WHEEL_HI_RES`); detents are the
/// legacy whole-notch stream (`REL_WHEEL`), non-zero only when the accumulated
/// hi-res total crosses a multiple of 120. Signs follow the kernel: positive
/// vertical scrolls up (towards the start of the document), positive horizontal
/// scrolls right.
public struct ScrollFrame: Equatable, Sendable {
    public var verticalHiRes: Int32
    public var verticalDetents: Int32
    public var horizontalHiRes: Int32
    public var horizontalDetents: Int32

    public init(
        verticalHiRes: Int32 = 0, verticalDetents: Int32 = 0,
        horizontalHiRes: Int32 = 0, horizontalDetents: Int32 = 0
    ) {
        self.verticalHiRes = verticalHiRes
        self.verticalDetents = verticalDetents
        self.horizontalHiRes = horizontalHiRes
        self.horizontalDetents = horizontalDetents
    }

    /// A frame that moves nothing is never emitted.
    public var isEmpty: Bool {
        verticalHiRes == 0 && verticalDetents == 0 && horizontalHiRes == 0 && horizontalDetents == 0
    }
}

/// Hi-res units per detent, fixed by the kernel's wheel ABI.
public let hiResUnitsPerDetent: Int32 = 120
