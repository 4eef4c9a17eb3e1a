/// A QR code as an SVG image: what the gallery shows beside a share URL, so a phone can
/// read it off the screen.
///
/// One path of unit squares on a white square with a four-module quiet zone; the image
/// scales to any size without blurring.
public enum QRSVG {
    /// The SVG document of `matrix`.
    public static func document(_ matrix: QRMatrix) -> String {
        let quiet = 4
        let side = matrix.width + 2 * quiet
        var path = ""
        for row in 0..<matrix.width {
            for column in 0..<matrix.width where matrix.isDark(row: row, column: column) {
                path += "M\(column + quiet) \(row + quiet)h1v1h-1z"
            }
        }
        return """
            <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 \(side) \(side)" \
            shape-rendering="crispEdges"><rect width="\(side)" height="\(side)" fill="#fff"/>\
            <path d="\(path)" fill="#000"/></svg>
            """
    }
}
