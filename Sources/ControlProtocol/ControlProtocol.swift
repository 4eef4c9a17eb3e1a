/// The JSON-lines control protocol shared by `peershared` and `peershare`.
public enum ControlProtocolModule {}
