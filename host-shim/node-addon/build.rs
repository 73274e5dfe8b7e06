//! Sets the linker flags a Node addon needs on the target platform.

fn main() {
    napi_build::setup();
}
