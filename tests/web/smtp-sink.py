# smtp-sink.py - a local SMTP server for the mail tests (mail.test.mjs), with Debian's
# python3-aiosmtpd: listens on 127.0.0.1 at a free port, prints "port N" once it does,
# then one JSON line per message received ({"from", "to", "data"}). With a first
# argument N > 0, the first N messages are refused with a temporary error (451), for
# the sender's retries. Stops when its standard input closes or on SIGTERM.
import asyncio
import json
import sys

from aiosmtpd.smtp import SMTP


class Sink:
    def __init__(self, refuse):
        self.refuse = refuse

    async def handle_DATA(self, server, session, envelope):
        if self.refuse > 0:
            self.refuse -= 1
            return '451 try again later'
        data = envelope.content.decode('utf-8', 'replace')
        print(json.dumps({'from': envelope.mail_from, 'to': envelope.rcpt_tos, 'data': data}),
              flush=True)
        return '250 OK'


async def main():
    refuse = int(sys.argv[1]) if len(sys.argv) > 1 else 0
    loop = asyncio.get_running_loop()
    handler = Sink(refuse)
    server = await loop.create_server(lambda: SMTP(handler), '127.0.0.1', 0)
    print(f'port {server.sockets[0].getsockname()[1]}', flush=True)
    closed = loop.create_future()
    loop.add_reader(sys.stdin.fileno(), lambda: closed.done() or (sys.stdin.buffer.read1(4096) or closed.set_result(None)))
    await closed
    server.close()


asyncio.run(main())
