import FoundationEssentials
import Glibc

/// The gallery's page, scripts and styles, compiled into the binary from `Web/Assets/`
/// (SwiftPM's `embedInCode`): no file on disk to go missing or be swapped, nothing fetched
/// from elsewhere.
enum WebAssets {
    /// Each asset by name, with its media type.
    static let files: [String: (bytes: [UInt8], type: String)] = [
        "app.js": (PackageResources.app_js, "application/javascript; charset=utf-8"),
        "core.js": (PackageResources.core_js, "application/javascript; charset=utf-8"),
        "grid.js": (PackageResources.grid_js, "application/javascript; charset=utf-8"),
        "photo.js": (PackageResources.photo_js, "application/javascript; charset=utf-8"),
        "shares.js": (PackageResources.shares_js, "application/javascript; charset=utf-8"),
        "devices.js": (PackageResources.devices_js, "application/javascript; charset=utf-8"),
        "style.css": (PackageResources.style_css, "text/css; charset=utf-8"),
        "icon.svg": (PackageResources.icon_svg, "image/svg+xml"),
    ]

    /// The page, with the session's CSRF token where `{{CSRF}}` stands.
    static func index(csrf: String) -> WebResponse {
        let page = String(decoding: PackageResources.index_html, as: UTF8.self)
            .replacing("{{CSRF}}", with: csrf)
        return .content(Array(page.utf8), type: "text/html; charset=utf-8")
    }

    static func file(_ name: String) -> WebResponse {
        guard let file = files[name] else { return .text("no asset \(name)\n", status: 404) }
        return .content(file.bytes, type: file.type, cache: "no-cache")
    }
}
