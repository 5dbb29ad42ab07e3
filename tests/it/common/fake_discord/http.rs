//! A minimal HTTP/1.1 server: keep-alive, `Content-Length` and chunked request bodies,
//! `Expect: 100-continue`, and the websocket upgrade of the gateway route.

use std::io;
use std::sync::Arc;

use serde_json::Value;
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio_tungstenite::tungstenite::handshake::derive_accept_key;
use tokio_tungstenite::tungstenite::protocol::Role;
use tokio_tungstenite::WebSocketStream;

use super::{gateway, rest, Shared};

/// Requests larger than this are refused: a test never needs them and a bug must not eat memory.
const MAX_BODY: usize = 64 * 1024 * 1024;
const MAX_HEAD: usize = 64 * 1024;

/// One parsed HTTP request.
pub(crate) struct HttpRequest {
    pub method: String,
    /// The path as sent, without the query string.
    pub path: String,
    /// The query string without `?` (empty when there is none).
    pub query: String,
    /// Header names are lower-cased.
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

impl HttpRequest {
    pub fn header(&self, name: &str) -> Option<&str> {
        header(&self.headers, name)
    }
}

pub(crate) fn header<'a>(headers: &'a [(String, String)], name: &str) -> Option<&'a str> {
    headers
        .iter()
        .find(|(k, _)| k.eq_ignore_ascii_case(name))
        .map(|(_, v)| v.as_str())
}

/// An answer: a status, an optional JSON body, extra headers, and how long to wait before
/// answering (a stub's way of making the bot's request time out).
pub(crate) struct HttpResponse {
    pub status: u16,
    pub body: Option<Value>,
    pub headers: Vec<(String, String)>,
    pub delay: Option<std::time::Duration>,
}

impl HttpResponse {
    pub fn json(status: u16, body: Value) -> Self {
        Self {
            status,
            body: Some(body),
            headers: Vec::new(),
            delay: None,
        }
    }

    pub fn empty(status: u16) -> Self {
        Self {
            status,
            body: None,
            headers: Vec::new(),
            delay: None,
        }
    }
}

pub(crate) async fn serve(listener: TcpListener, shared: Arc<Shared>) {
    loop {
        let Ok((stream, _)) = listener.accept().await else {
            // Out of file descriptors or the like: do not spin.
            tokio::time::sleep(std::time::Duration::from_millis(20)).await;
            continue;
        };
        let _ = stream.set_nodelay(true);
        let shared2 = Arc::clone(&shared);
        let task = tokio::spawn(async move {
            if let Err(e) = handle_connection(stream, shared2).await {
                if !matches!(
                    e.kind(),
                    io::ErrorKind::UnexpectedEof
                        | io::ErrorKind::ConnectionReset
                        | io::ErrorKind::BrokenPipe
                ) {
                    eprintln!("fake_discord: connection error: {e}");
                }
            }
        });
        shared.track_task(task.abort_handle());
    }
}

async fn handle_connection(mut stream: TcpStream, shared: Arc<Shared>) -> io::Result<()> {
    let mut buf: Vec<u8> = Vec::with_capacity(16 * 1024);
    loop {
        let Some(head_len) = read_head(&mut stream, &mut buf).await? else {
            return Ok(());
        };
        let head = String::from_utf8_lossy(&buf[..head_len]).into_owned();
        buf.drain(..head_len + 4);
        let mut lines = head.split("\r\n");
        let request_line = lines.next().unwrap_or_default();
        let mut parts = request_line.split_whitespace();
        let method = parts.next().unwrap_or_default().to_ascii_uppercase();
        let target = parts.next().unwrap_or("/").to_string();
        let version = parts.next().unwrap_or("HTTP/1.1").to_string();
        let headers: Vec<(String, String)> = lines
            .filter_map(|l| {
                let (k, v) = l.split_once(':')?;
                Some((k.trim().to_ascii_lowercase(), v.trim().to_string()))
            })
            .collect();
        let (path, query) = match target.split_once('?') {
            Some((p, q)) => (p.to_string(), q.to_string()),
            None => (target.clone(), String::new()),
        };

        let wants_upgrade =
            header(&headers, "upgrade").is_some_and(|u| u.eq_ignore_ascii_case("websocket"));
        if wants_upgrade {
            let Some(key) = header(&headers, "sec-websocket-key") else {
                write_response(&mut stream, &HttpResponse::empty(400), true).await?;
                return Ok(());
            };
            let accept = derive_accept_key(key.as_bytes());
            let answer = format!(
                "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: {accept}\r\n\r\n"
            );
            stream.write_all(answer.as_bytes()).await?;
            stream.flush().await?;
            let leftover = std::mem::take(&mut buf);
            let ws =
                WebSocketStream::from_partially_read(stream, leftover, Role::Server, None).await;
            gateway::run_session(ws, shared, path, query).await;
            return Ok(());
        }

        if header(&headers, "expect").is_some_and(|e| e.eq_ignore_ascii_case("100-continue")) {
            stream.write_all(b"HTTP/1.1 100 Continue\r\n\r\n").await?;
        }
        let chunked = header(&headers, "transfer-encoding")
            .is_some_and(|t| t.to_ascii_lowercase().contains("chunked"));
        let body = if chunked {
            read_chunked(&mut stream, &mut buf).await?
        } else {
            let len = header(&headers, "content-length")
                .and_then(|v| v.parse::<usize>().ok())
                .unwrap_or(0);
            if len > MAX_BODY {
                return Err(io::Error::new(io::ErrorKind::InvalidData, "body too large"));
            }
            read_exact_buffered(&mut stream, &mut buf, len).await?
        };
        let close = header(&headers, "connection").is_some_and(|c| c.eq_ignore_ascii_case("close"))
            || version == "HTTP/1.0";
        let request = HttpRequest {
            method,
            path,
            query,
            headers,
            body,
        };
        let response = rest::handle(&shared, request);
        if let Some(delay) = response.delay {
            tokio::time::sleep(delay).await;
        }
        write_response(&mut stream, &response, close).await?;
        if close {
            return Ok(());
        }
    }
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}

async fn fill<S: AsyncRead + Unpin>(stream: &mut S, buf: &mut Vec<u8>) -> io::Result<usize> {
    let mut chunk = [0u8; 16 * 1024];
    let n = stream.read(&mut chunk).await?;
    buf.extend_from_slice(&chunk[..n]);
    Ok(n)
}

/// Reads until the end of the request head; `None` when the peer closed between requests.
async fn read_head<S: AsyncRead + Unpin>(
    stream: &mut S,
    buf: &mut Vec<u8>,
) -> io::Result<Option<usize>> {
    loop {
        if let Some(pos) = find(buf, b"\r\n\r\n") {
            return Ok(Some(pos));
        }
        if buf.len() > MAX_HEAD {
            return Err(io::Error::new(
                io::ErrorKind::InvalidData,
                "request head too large",
            ));
        }
        if fill(stream, buf).await? == 0 {
            if buf.is_empty() {
                return Ok(None);
            }
            return Err(io::ErrorKind::UnexpectedEof.into());
        }
    }
}

async fn read_exact_buffered<S: AsyncRead + Unpin>(
    stream: &mut S,
    buf: &mut Vec<u8>,
    len: usize,
) -> io::Result<Vec<u8>> {
    while buf.len() < len {
        if fill(stream, buf).await? == 0 {
            return Err(io::ErrorKind::UnexpectedEof.into());
        }
    }
    Ok(buf.drain(..len).collect())
}

async fn read_line<S: AsyncRead + Unpin>(stream: &mut S, buf: &mut Vec<u8>) -> io::Result<String> {
    loop {
        if let Some(pos) = find(buf, b"\r\n") {
            let line = String::from_utf8_lossy(&buf[..pos]).into_owned();
            buf.drain(..pos + 2);
            return Ok(line);
        }
        if buf.len() > MAX_HEAD {
            return Err(io::Error::new(
                io::ErrorKind::InvalidData,
                "chunk line too long",
            ));
        }
        if fill(stream, buf).await? == 0 {
            return Err(io::ErrorKind::UnexpectedEof.into());
        }
    }
}

/// Decodes a `Transfer-Encoding: chunked` body (chunk extensions and trailers are ignored).
async fn read_chunked<S: AsyncRead + Unpin>(
    stream: &mut S,
    buf: &mut Vec<u8>,
) -> io::Result<Vec<u8>> {
    let mut body = Vec::new();
    loop {
        let line = read_line(stream, buf).await?;
        let size_text = line.split(';').next().unwrap_or_default().trim();
        let size = usize::from_str_radix(size_text, 16)
            .map_err(|_| io::Error::new(io::ErrorKind::InvalidData, "bad chunk size"))?;
        if size == 0 {
            // Trailers, up to the empty line.
            while !read_line(stream, buf).await?.is_empty() {}
            return Ok(body);
        }
        if body.len() + size > MAX_BODY {
            return Err(io::Error::new(io::ErrorKind::InvalidData, "body too large"));
        }
        let chunk = read_exact_buffered(stream, buf, size + 2).await?;
        body.extend_from_slice(&chunk[..size]);
    }
}

fn reason(status: u16) -> &'static str {
    match status {
        200 => "OK",
        201 => "Created",
        204 => "No Content",
        400 => "Bad Request",
        401 => "Unauthorized",
        403 => "Forbidden",
        404 => "Not Found",
        405 => "Method Not Allowed",
        413 => "Payload Too Large",
        500 => "Internal Server Error",
        _ => "Unknown",
    }
}

async fn write_response(
    stream: &mut TcpStream,
    response: &HttpResponse,
    close: bool,
) -> io::Result<()> {
    let body = match (&response.body, response.status) {
        (_, 204) | (None, _) => Vec::new(),
        (Some(v), _) => serde_json::to_vec(v).unwrap_or_default(),
    };
    let mut head = format!(
        "HTTP/1.1 {} {}\r\n",
        response.status,
        reason(response.status)
    );
    if response.status != 204 {
        head.push_str("Content-Type: application/json\r\n");
        head.push_str(&format!("Content-Length: {}\r\n", body.len()));
    }
    for (name, value) in &response.headers {
        head.push_str(&format!("{name}: {value}\r\n"));
    }
    if close {
        head.push_str("Connection: close\r\n");
    }
    head.push_str("\r\n");
    stream.write_all(head.as_bytes()).await?;
    stream.write_all(&body).await?;
    stream.flush().await
}

/// One part of a `multipart/form-data` body.
pub(crate) struct Part {
    pub name: String,
    pub filename: Option<String>,
    pub content_type: Option<String>,
    pub data: Vec<u8>,
}

/// The boundary of a `multipart/form-data` content type, if it is one.
pub(crate) fn multipart_boundary(content_type: &str) -> Option<String> {
    let mut pieces = content_type.split(';');
    let essence = pieces.next()?.trim();
    if !essence.eq_ignore_ascii_case("multipart/form-data") {
        return None;
    }
    pieces.find_map(|p| {
        let (k, v) = p.trim().split_once('=')?;
        k.trim()
            .eq_ignore_ascii_case("boundary")
            .then(|| v.trim().trim_matches('"').to_string())
    })
}

pub(crate) fn parse_multipart(body: &[u8], boundary: &str) -> Result<Vec<Part>, String> {
    let delimiter = format!("--{boundary}").into_bytes();
    let mut rest = match find(body, &delimiter) {
        Some(pos) => &body[pos + delimiter.len()..],
        None => return Err("no multipart boundary in the body".into()),
    };
    let mut parts = Vec::new();
    loop {
        if rest.starts_with(b"--") {
            return Ok(parts);
        }
        rest = rest
            .strip_prefix(b"\r\n")
            .ok_or("missing CRLF after boundary")?;
        let head_end = find(rest, b"\r\n\r\n").ok_or("unterminated part headers")?;
        let head = String::from_utf8_lossy(&rest[..head_end]).into_owned();
        rest = &rest[head_end + 4..];
        let mut closing = b"\r\n".to_vec();
        closing.extend_from_slice(&delimiter);
        let end = find(rest, &closing).ok_or("unterminated part")?;
        let data = rest[..end].to_vec();
        rest = &rest[end + closing.len()..];

        let mut part = Part {
            name: String::new(),
            filename: None,
            content_type: None,
            data,
        };
        for line in head.split("\r\n") {
            let Some((k, v)) = line.split_once(':') else {
                continue;
            };
            if k.trim().eq_ignore_ascii_case("content-disposition") {
                for param in v.split(';').skip(1) {
                    let Some((pk, pv)) = param.trim().split_once('=') else {
                        continue;
                    };
                    let pv = pv.trim().trim_matches('"').to_string();
                    match pk.trim().to_ascii_lowercase().as_str() {
                        "name" => part.name = pv,
                        "filename" => part.filename = Some(pv),
                        _ => {}
                    }
                }
            } else if k.trim().eq_ignore_ascii_case("content-type") {
                part.content_type = Some(v.trim().to_string());
            }
        }
        parts.push(part);
    }
}
