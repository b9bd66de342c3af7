import Mnemo
import MnemoPostgres
import Testing

@Suite("postgres:// URLs")
struct PostgresLocationTests {
    @Test func fullURL() throws {
        let location = try PostgresLocation(url: "postgres://alice:s%40cret@db.internal:6543/memory")
        #expect(location.host == "db.internal")
        #expect(location.port == 6543)
        #expect(location.username == "alice")
        #expect(location.password == "s@cret")
        #expect(location.database == "memory")
        #expect(location.description == "postgres://alice:***@db.internal:6543/memory")
    }

    @Test func defaultsAndScheme() throws {
        let location = try PostgresLocation(url: "postgresql://bob@localhost/mnemo")
        #expect(location.port == 5432)
        #expect(location.password == nil)
        #expect(PostgresLocation.isURL("postgres://x@y/z"))
        #expect(!PostgresLocation.isURL("memory.sqlite"))
    }

    @Test(arguments: [
        ("postgres://localhost/mnemo", "no user"),
        ("postgres://alice@/mnemo", "no host"),
        ("postgres://alice:pw@localhost", "no database"),
        ("postgres://alice:pw@localhost:99999/mnemo", "port 99999 out of range"),
    ])
    func badURLsSayWhatIsMissing(url: String, reason: String) {
        #expect {
            try PostgresLocation(url: url)
        } throws: { error in
            let message = "\(error)"
            return message.contains(reason) && !message.contains(":pw@") && !message.contains("\n")
        }
    }
}
