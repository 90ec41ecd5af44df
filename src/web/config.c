/*
 * config.c - the defaults of `crown serve`, in one place (docs/API.md lists them).
 */
#include "web/config.h"

void serve_config_defaults(ServeConfig *cfg)
{
    *cfg = (ServeConfig){
        .bind = "127.0.0.1",
        .port = 8080,
        .write_rate = 20,
        .write_burst = 120,
        .max_connections = 16000,
        .max_per_ip = 256,
        .head_timeout_s = 10,
        .heads_per_ip = 32,
        .creates_per_hour = 60,
        .ai_games = 3,
        .aiai_games = 2,
        // At home: enough never to be met by one person, still bounded (the AI games
        // stay in memory, each with its think time).
        .limits = LIMITS_AUTO,
        .home_creates_per_hour = 1000,
        .home_ai_games = 50,
        .home_aiai_games = 10,
        .ai_max_plies = 1000,
        .ai_seconds = 600,
        .ai_queue = 4,
        .hint_timeout_s = 10,
        .streams_per_ip = 32,
        .streams_per_game = 64,
        .keep_alive_s = 15,
        .dead_after_s = 30,
        .idle_s = 300,
        .day_s = 86400,
        .login_tries = 5,
        .abandon_s = 30L * 24 * 3600,
        .finished_s = 0,
        .lab_max_games = LAB_DEFAULT_MAX_GAMES,
        .lab_keep = LAB_DEFAULT_KEEP,
        .lab_starts = LAB_DEFAULT_STARTS,
    };
}
