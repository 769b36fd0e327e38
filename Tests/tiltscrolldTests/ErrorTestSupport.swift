/// The error `body` throws, as the type it throws, or nil when it returns:
/// for tests that check what an error says. (The type is named because a
/// closure's thrown type is not inferred.)
func thrownError<E: Error, T>(_ type: E.Type, _ body: @autoclosure () throws(E) -> T) -> E? {
    do {
        _ = try body()
        return nil
    } catch {
        return error
    }
}
