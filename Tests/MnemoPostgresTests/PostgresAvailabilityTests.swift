import Foundation
import MnemoTestSupport
import Testing

@Suite("PostgreSQL for the tests")
struct PostgresAvailabilityTests {
    @Test("CI provides a PostgreSQL", .enabled(if: ProcessInfo.processInfo.environment["CI"] != nil))
    func ciProvidesPostgres() {
        #expect(TestStore.isAvailable, "CI must set MNEMO_TEST_POSTGRES_URL: the PostgreSQL tests would be skipped")
    }
}
