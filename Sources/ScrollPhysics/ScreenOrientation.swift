/// Which edge of the display points up, after the mount matrix.
public enum ScreenOrientation: String, CaseIterable, Equatable, Sendable {
    /// Top edge up: gravity reads (0, -g, 0).
    case normal
    /// Left edge up: gravity reads (+g, 0, 0).
    case leftUp = "left-up"
    /// Right edge up: gravity reads (-g, 0, 0).
    case rightUp = "right-up"
    /// Bottom edge up: gravity reads (0, +g, 0).
    case bottomUp = "bottom-up"
}

/// Where the user's right, up and the screen's outward normal point, in
/// display axes, for each edge that can be up.
///
/// Display axes (after the mount matrix): +x towards the right edge, +y towards
/// the top edge, +z out of the screen towards the viewer; an accelerometer at
/// rest reads the direction of gravity, so "upright" reads (0, -g, 0). Turning
/// the device so its left edge is up makes the old left edge (-x) the user's
/// up and the old top edge (+y) the user's right, and so on. right x up is
/// always +z, so every frame is right-handed and a pitch measured in it means
/// the same thing in every orientation.
extension ScreenOrientation {
    /// Components of `v` in the user's frame: (right, up, out of the screen).
    @inline(__always)
    func userComponents(of v: Vector3) -> Vector3 {
        switch self {
        case .normal: return Vector3(v.x, v.y, v.z)
        case .leftUp: return Vector3(v.y, -v.x, v.z)
        case .rightUp: return Vector3(-v.y, v.x, v.z)
        case .bottomUp: return Vector3(-v.x, -v.y, v.z)
        }
    }

    /// The display-axes vector whose user-frame components are `c`; the
    /// inverse of `userComponents(of:)`.
    func displayVector(fromUser c: Vector3) -> Vector3 {
        switch self {
        case .normal: return Vector3(c.x, c.y, c.z)
        case .leftUp: return Vector3(-c.y, c.x, c.z)
        case .rightUp: return Vector3(c.y, -c.x, c.z)
        case .bottomUp: return Vector3(-c.x, -c.y, c.z)
        }
    }

    /// How much of `gravity` points at this orientation's bottom edge: the
    /// component along the in-plane "down" of the user's frame.
    @inline(__always)
    func downComponent(of gravity: Vector3) -> Double {
        switch self {
        case .normal: return -gravity.y
        case .leftUp: return gravity.x
        case .rightUp: return -gravity.x
        case .bottomUp: return gravity.y
        }
    }

    /// The orientation whose bottom edge `gravity` points at most, with that
    /// component.
    static func nearest(to gravity: Vector3) -> (orientation: ScreenOrientation, downComponent: Double) {
        var best = ScreenOrientation.normal
        var bestDown = -gravity.y
        if gravity.x > bestDown { (best, bestDown) = (.leftUp, gravity.x) }
        if -gravity.x > bestDown { (best, bestDown) = (.rightUp, -gravity.x) }
        if gravity.y > bestDown { (best, bestDown) = (.bottomUp, gravity.y) }
        return (best, bestDown)
    }

    /// `*_to_str` for logs.
    public var name: String { rawValue }
}
