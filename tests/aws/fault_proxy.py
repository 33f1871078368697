#!/usr/bin/env python3
"""An HTTP proxy between dfbench and the AWS emulator that misbehaves as networks and AWS do.

Every request is forwarded byte for byte (headers included, so signatures still verify) unless a
rule says otherwise. A rule applies to the first TIMES requests of an API action (the form's
Action=, or the X-Amz-Target's operation; "*" for any):

  drop      forward it, then close the connection without a reply (the reply is lost)
  500       forward it, then answer 500 InternalFailure (AWS did the work, said it failed)
  delay     forward it, then wait SECONDS before relaying the reply (past the client's timeout)
  throttle  answer 400 Throttling without forwarding
  refuse    close the connection without forwarding (the request never reached AWS)
  quota     answer GetServiceQuota with a quota of SECONDS vCPUs, not forwarded: the emulator
            knows no EC2 quota, so a quota too small can only be shown this way

Usage: fault_proxy.py UPSTREAM_URL PORT_FILE LOG_FILE [RULE ...], each RULE as
ACTION:FAULT[:TIMES[:SECONDS]], e.g. CreateStack:drop:1 or '*:throttle:3'. It listens on a free
port of 127.0.0.1, writes that port to PORT_FILE, and appends one line per request to LOG_FILE:
"ACTION forwarded|FAULT STATUS". It runs until killed.
"""
import http.client
import os
import socket
import sys
import threading
import time
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

UPSTREAM = urllib.parse.urlsplit(sys.argv[1])
PORT_FILE, LOG_FILE = sys.argv[2], sys.argv[3]
RULES = []
for text in sys.argv[4:]:
    parts = text.split(":")
    RULES.append({"action": parts[0], "fault": parts[1],
                  "times": int(parts[2]) if len(parts) > 2 else 1,
                  "seconds": float(parts[3]) if len(parts) > 3 else 0.0})
LOCK = threading.Lock()

THROTTLED = (b'<ErrorResponse><Error><Type>Sender</Type><Code>Throttling</Code>'
             b'<Message>Rate exceeded</Message></Error><RequestId>fault-proxy</RequestId>'
             b'</ErrorResponse>')
FAILED = (b'<ErrorResponse><Error><Type>Receiver</Type><Code>InternalFailure</Code>'
          b'<Message>The request processing has failed</Message></Error>'
          b'<RequestId>fault-proxy</RequestId></ErrorResponse>')


def action_of(headers, body):
    target = headers.get("X-Amz-Target")
    if target:
        return target.split(".")[-1]
    form = urllib.parse.parse_qs(body.decode("utf-8", "replace"))
    return form.get("Action", ["?"])[0]


def take_rule(action):
    with LOCK:
        for rule in RULES:
            if rule["times"] > 0 and rule["action"] in (action, "*"):
                rule["times"] -= 1
                return rule
    return None


def log(action, what, status):
    with LOCK, open(LOG_FILE, "a") as f:
        f.write(f"{action} {what} {status}\n")


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def hang_up(self):
        self.close_connection = True
        try:
            self.connection.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass

    def answer(self, status, body, headers=()):
        self.send_response(status)
        for k, v in headers:
            if k.lower() not in ("content-length", "transfer-encoding", "connection"):
                self.send_header(k, v)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def forward(self, body):
        conn = http.client.HTTPConnection(UPSTREAM.hostname, UPSTREAM.port, timeout=120)
        headers = {k: v for k, v in self.headers.items() if k.lower() != "connection"}
        conn.request(self.command, self.path, body=body, headers=headers)
        reply = conn.getresponse()
        data = reply.read()
        conn.close()
        return reply.status, reply.getheaders(), data

    def handle_any(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", 0) or 0))
        action = action_of(self.headers, body)
        rule = take_rule(action)
        fault = rule["fault"] if rule else None
        if fault == "refuse":
            log(action, "refuse", "-")
            return self.hang_up()
        if fault == "quota":
            log(action, "quota", 200)
            body = ('{"Quota": {"ServiceCode": "ec2", "QuotaCode": "L-1216C47A", '
                    f'"QuotaName": "Running On-Demand Standard instances", "Value": {rule["seconds"]}}}}}')
            return self.answer(200, body.encode(), [("Content-Type", "application/x-amz-json-1.1")])
        if fault == "throttle":
            log(action, "throttle", 400)
            return self.answer(400, THROTTLED, [("Content-Type", "text/xml")])
        status, headers, data = self.forward(body)
        if fault == "drop":
            log(action, "drop", status)
            return self.hang_up()
        if fault == "500":
            log(action, "500", status)
            return self.answer(500, FAILED, [("Content-Type", "text/xml")])
        if fault == "delay":
            log(action, "delay", status)
            # The modelled fault: AWS answering late (a test's wait has its own deadline).
            time.sleep(rule["seconds"])
            try:
                return self.answer(status, data, headers)
            except OSError:
                return None  # the client gave up first, as intended
        log(action, "forwarded", status)
        return self.answer(status, data, headers)

    do_POST = handle_any
    do_GET = handle_any


server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
server.daemon_threads = True
with open(PORT_FILE + ".tmp", "w") as f:
    f.write(str(server.server_address[1]))
os.rename(PORT_FILE + ".tmp", PORT_FILE)
server.serve_forever()
