// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "OpledgerCompanion",
    platforms: [.iOS(.v15), .macOS(.v12)],
    products: [
        .library(name: "OpledgerCompanion", targets: ["OpledgerCompanion"]),
    ],
    targets: [
        .target(name: "OpledgerCompanion"),
        .testTarget(name: "OpledgerCompanionTests", dependencies: ["OpledgerCompanion"]),
        // against a real node: ios-companion/e2e-linux.sh (skipped without one)
        .testTarget(name: "OpledgerCompanionEndToEndTests", dependencies: ["OpledgerCompanion"]),
    ]
)
