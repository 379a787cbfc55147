/* csrdu (formats/csrdu.h) has no device kernel yet: its registry row has cuda = 0. */
