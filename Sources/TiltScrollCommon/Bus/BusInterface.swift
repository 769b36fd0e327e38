/// Where the daemon is on the system bus (dbus/io.github.tiltscroll.TiltScroll1.xml).
package enum BusInterface {
    package static let name = "io.github.tiltscroll.TiltScroll1"
    package static let path = "/io/github/tiltscroll/TiltScroll1"
    package static let interface = "io.github.tiltscroll.TiltScroll1"
}
