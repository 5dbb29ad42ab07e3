//! Group commit: requests that arrive while statements are running go together in the next.
//!
//! With SQLite behind sqlx, each statement is a round trip to the connection's own thread, and on a
//! small machine those hand-offs cost more than SQLite's work. A batcher runs a statement for
//! everything that queued up meanwhile, so under load the hand-offs are shared, and with no load a
//! request goes straight through.
//!
//! A batcher serves a given number of batches at once: one where the database has one writer
//! (SQLite's), more where it has many (PostgreSQL's). Then the next batch is sent as soon as any
//! batch in flight is answered, so a slow statement holds up only the requests it carries, not
//! those that arrive after it.

use std::future::Future;
use std::sync::Arc;

use tokio::sync::{mpsc, oneshot, Semaphore};

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
    /// each request of a batch in order, at most `in_flight` batches at a time (at least one).
    /// The task ends when the last `Batcher` is dropped.
    pub fn spawn<F, Fut>(max: usize, in_flight: usize, serve: F) -> Self
    where
        F: Fn(Vec<Req>) -> Fut + Send + 'static,
        Fut: Future<Output = Vec<Resp>> + Send + 'static,
    {
        let (queue, mut jobs) = mpsc::unbounded_channel::<Job<Req, Resp>>();
        let slots = Arc::new(Semaphore::new(in_flight.max(1)));
        tokio::spawn(async move {
            // A slot first: the requests that arrive meanwhile wait in the queue, and go
            // together once a batch in flight is answered.
            while let Ok(slot) = Arc::clone(&slots).acquire_owned().await {
                let Some(first) = jobs.recv().await else {
                    break;
                };
                let mut batch = vec![first];
                while batch.len() < max {
                    match jobs.try_recv() {
                        Ok(job) => batch.push(job),
                        Err(_) => break,
                    }
                }
                let (requests, replies): (Vec<Req>, Vec<oneshot::Sender<Resp>>) =
                    batch.into_iter().unzip();
                let answers = serve(requests);
                tokio::spawn(async move {
                    for (reply, answer) in replies.into_iter().zip(answers.await) {
                        // A caller that stopped waiting has nothing to be told.
                        let _ = reply.send(answer);
                    }
                    drop(slot);
                });
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

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::Mutex;
    use std::time::Duration;

    use super::*;

    /// A batcher whose serving waits, for any batch holding a request `held` names, until the
    /// test lets it go; it records each batch it was given and the most it served at once.
    struct Probe {
        batches: Arc<Mutex<Vec<Vec<u32>>>>,
        peak: Arc<AtomicUsize>,
        release: Arc<tokio::sync::Notify>,
        batcher: Batcher<u32, u32>,
    }

    fn probe(in_flight: usize, held: &'static [u32]) -> Probe {
        let batches = Arc::new(Mutex::new(Vec::new()));
        let peak = Arc::new(AtomicUsize::new(0));
        let running = Arc::new(AtomicUsize::new(0));
        let release = Arc::new(tokio::sync::Notify::new());
        let batcher = {
            let (batches, peak, release) = (batches.clone(), peak.clone(), release.clone());
            Batcher::spawn(64, in_flight, move |requests: Vec<u32>| {
                let (batches, peak, running, release) = (
                    batches.clone(),
                    peak.clone(),
                    running.clone(),
                    release.clone(),
                );
                async move {
                    let now = running.fetch_add(1, Ordering::SeqCst) + 1;
                    peak.fetch_max(now, Ordering::SeqCst);
                    batches.lock().unwrap().push(requests.clone());
                    if requests.iter().any(|r| held.contains(r)) {
                        release.notified().await;
                    } else {
                        tokio::time::sleep(Duration::from_millis(5)).await;
                    }
                    running.fetch_sub(1, Ordering::SeqCst);
                    requests.iter().map(|r| r * 10).collect()
                }
            })
        };
        Probe {
            batches,
            peak,
            release,
            batcher,
        }
    }

    fn call(p: &Probe, request: u32) -> tokio::task::JoinHandle<Option<u32>> {
        let batcher = p.batcher.clone();
        tokio::spawn(async move { batcher.call(request).await })
    }

    /// Waits until the batcher has been given `n` batches.
    async fn batches_given(p: &Probe, n: usize) {
        for _ in 0..500 {
            if p.batches.lock().unwrap().len() >= n {
                return;
            }
            tokio::time::sleep(Duration::from_millis(2)).await;
        }
        panic!("{n} batches never came: {:?}", p.batches.lock().unwrap());
    }

    #[tokio::test]
    async fn with_two_in_flight_a_slow_batch_holds_up_only_its_own_requests() {
        let p = probe(2, &[1]);
        let slow = call(&p, 1);
        batches_given(&p, 1).await;
        // Served beside the slow batch, one after the other.
        for r in [2, 3] {
            let answer = tokio::time::timeout(Duration::from_secs(2), call(&p, r))
                .await
                .unwrap_or_else(|_| panic!("request {r} waited for the slow batch"));
            assert_eq!(answer.unwrap(), Some(r * 10));
        }
        assert!(!slow.is_finished(), "the slow batch was let go early");
        p.release.notify_one();
        assert_eq!(slow.await.unwrap(), Some(10));
        assert_eq!(p.peak.load(Ordering::SeqCst), 2);
    }

    #[tokio::test]
    async fn requests_that_arrive_while_every_slot_is_taken_go_together_in_the_next_batch() {
        let p = probe(2, &[1, 2]);
        let first = call(&p, 1);
        batches_given(&p, 1).await;
        let second = call(&p, 2);
        batches_given(&p, 2).await;
        let waiting: Vec<_> = (3..8).map(|r| call(&p, r)).collect();
        tokio::time::sleep(Duration::from_millis(50)).await;
        assert_eq!(p.batches.lock().unwrap().len(), 2, "no slot was free");
        p.release.notify_one();
        for (r, answer) in (3..8).zip(waiting) {
            assert_eq!(answer.await.unwrap(), Some(r * 10));
        }
        p.release.notify_one();
        assert_eq!(first.await.unwrap(), Some(10));
        assert_eq!(second.await.unwrap(), Some(20));
        let batches = p.batches.lock().unwrap().clone();
        assert_eq!(batches, [vec![1], vec![2], vec![3, 4, 5, 6, 7]]);
        assert_eq!(p.peak.load(Ordering::SeqCst), 2);
    }

    #[tokio::test]
    async fn with_one_in_flight_batches_are_served_one_at_a_time() {
        let p = probe(1, &[1]);
        let slow = call(&p, 1);
        batches_given(&p, 1).await;
        let later: Vec<_> = [2, 3].into_iter().map(|r| call(&p, r)).collect();
        tokio::time::sleep(Duration::from_millis(50)).await;
        assert_eq!(
            p.batches.lock().unwrap().len(),
            1,
            "a second batch ran beside the first"
        );
        p.release.notify_one();
        assert_eq!(slow.await.unwrap(), Some(10));
        for (r, answer) in [2, 3].into_iter().zip(later) {
            assert_eq!(answer.await.unwrap(), Some(r * 10));
        }
        assert_eq!(p.batches.lock().unwrap().clone(), [vec![1], vec![2, 3]]);
        assert_eq!(p.peak.load(Ordering::SeqCst), 1);
    }
}
