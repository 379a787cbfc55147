/* toy (tests/toy/toy.h) has no device kernel: its registry row has cuda = 0. */
