//! A response body as hyper sends it.
//!
//! hyper drops a `Content-Length` header it is handed when the body says it is already at its
//! end, and adds none of its own to a 204. Production writes `Content-Length: 0` on every
//! bodiless 204, and the wire layer sets it; so this body reports an exact size (0 for an
//! empty one) and says it is at its end only once its one frame is taken, and hyper then writes
//! the header as given.

use hyper::body::{Bytes, Frame, SizeHint};
use std::convert::Infallible;
use std::pin::Pin;
use std::task::{Context, Poll};

/// The whole body, sent as one frame (none when empty).
pub struct Body(Option<Bytes>);

impl Body {
    pub fn new(bytes: Vec<u8>) -> Body {
        Body(Some(Bytes::from(bytes)))
    }
}

impl hyper::body::Body for Body {
    type Data = Bytes;
    type Error = Infallible;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        _: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, Infallible>>> {
        let frame = self.0.take().filter(|b| !b.is_empty()).map(Frame::data);
        Poll::Ready(frame.map(Ok))
    }

    fn is_end_stream(&self) -> bool {
        self.0.is_none()
    }

    fn size_hint(&self) -> SizeHint {
        SizeHint::with_exact(self.0.as_ref().map_or(0, |b| b.len() as u64))
    }
}
