import { Injectable } from '@nestjs/common';

/** The time source of cache and retention decisions; tests replace `now` to move time. */
@Injectable()
export class Clock {
  now: () => Date = () => new Date();
}
