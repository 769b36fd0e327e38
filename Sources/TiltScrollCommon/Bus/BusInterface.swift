/// Where the daemon is on the system bus (dbus/io.github.tiltscroll.TiltScroll1.xml).
public enum BusInterface {
    public static let name = "io.github.tiltscroll.TiltScroll1"
    public static let path = "/io/github/tiltscroll/TiltScroll1"
    public static let interface = "io.github.tiltscroll.TiltScroll1"
}
