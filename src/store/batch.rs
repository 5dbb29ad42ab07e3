//! Group commit: requests that arrive while one statement is running go together in the next.
//!
//! With SQLite behind sqlx, each statement is a round trip to the connection's own thread, and on a
//! small machine those hand-offs cost more than SQLite's work. A batcher runs one statement at a
//! time for everything that queued up meanwhile, so under load the hand-offs are shared, and with
//! no load a request goes straight through.

use std::future::Future;

use tokio::sync::{mpsc, oneshot};

type Job<Req, Resp> = (Req, oneshot::Sender<Resp>);

/// A queue in front of a function that serves many requests at once.
#[derive(Debug)]
pub(crate) struct Batcher<Req, Resp> {
    queue: mpsc::UnboundedSender<Job<Req, Resp>>,
}

impl<Req, Resp> Clone for Batcher<Req, Resp> {
    fn clone(&self) -> Self {
        Batcher {
            queue: self.queue.clone(),
        }
    }
}

impl<Req: Send + 'static, Resp: Send + 'static> Batcher<Req, Resp> {
    /// Starts the task that serves batches of at most `max` requests with `serve`, which answers
    /// each request of a batch in order. The task ends when the last `Batcher` is dropped.
    pub fn spawn<F, Fut>(max: usize, serve: F) -> Self
    where
        F: Fn(Vec<Req>) -> Fut + Send + 'static,
        Fut: Future<Output = Vec<Resp>> + Send,
    {
        let (queue, mut jobs) = mpsc::unbounded_channel::<Job<Req, Resp>>();
        tokio::spawn(async move {
            while let Some(first) = jobs.recv().await {
                let mut batch = vec![first];
                while batch.len() < max {
                    match jobs.try_recv() {
                        Ok(job) => batch.push(job),
                        Err(_) => break,
                    }
                }
                let (requests, replies): (Vec<Req>, Vec<oneshot::Sender<Resp>>) =
                    batch.into_iter().unzip();
                let answers = serve(requests).await;
                for (reply, answer) in replies.into_iter().zip(answers) {
                    // A caller that stopped waiting has nothing to be told.
                    let _ = reply.send(answer);
                }
            }
        });
        Batcher { queue }
    }

    /// Queues a request and waits for its answer; `None` if the serving task is gone.
    pub async fn call(&self, request: Req) -> Option<Resp> {
        let (reply, answer) = oneshot::channel();
        self.queue.send((request, reply)).ok()?;
        answer.await.ok()
    }
}
