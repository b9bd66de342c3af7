/// The version of Mnemo: what `mnemo --version` prints, the MCP server announces, `/healthz`
/// reports and the OpenAPI document's `info.version` says.
///
/// One place, so that a release changes it once; a test holds the OpenAPI document to it.
public enum MnemoVersion {
    /// The release's semantic version, as a package that depends on Mnemo names it.
    public static let current = "0.1.0"
}
