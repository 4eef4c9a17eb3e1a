/// The version both executables print, so `peershare` and `peershared` can be compared.
public enum PeerShareVersion {
    public static let string = "0.1.0-dev"
}
