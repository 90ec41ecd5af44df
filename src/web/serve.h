/*
 * serve.h - `crown serve`, the web server's command. src/cli's dispatcher declares it
 * too (cli.h) rather than include a web header, so that neither front end includes the
 * other.
 */
#ifndef CROWN_WEB_SERVE_H
#define CROWN_WEB_SERVE_H

int cmd_serve(int argc, char **argv);

#endif
