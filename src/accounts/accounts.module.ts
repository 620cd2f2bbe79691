import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { RedisService } from '../common/redis/redis.service';
import { AccountsService } from './accounts.service';
import { LoginThrottle } from './entities/login-throttle.entity';
import { WebInvitation } from './entities/web-invitation.entity';
import { WebSession } from './entities/web-session.entity';
import { WebUser } from './entities/web-user.entity';
import { LoginThrottleStore, PgLoginThrottleStore, RedisLoginThrottleStore } from './login-throttle.store';
import { PgSessionStore, RedisSessionStore, SessionStore } from './session.store';
import { SessionsService } from './sessions.service';
import { UsersStore } from './users.store';
import { SignupService } from './signup.service';
import { SignupsStore } from './signups.store';

/**
 * Website accounts (a platform concern: the website and the admin CLI use it). Sessions and
 * sign-in counters live in Redis when REDIS_URL is set, in PostgreSQL otherwise.
 */
@Module({
  imports: [TypeOrmModule.forFeature([WebUser, WebSession, LoginThrottle, WebInvitation])],
  providers: [
    {
      provide: SessionStore,
      inject: [RedisService, DataSource],
      useFactory: (redis: RedisService, db: DataSource) =>
        redis.client ? new RedisSessionStore(redis) : new PgSessionStore(db),
    },
    {
      provide: LoginThrottleStore,
      inject: [RedisService, DataSource],
      useFactory: (redis: RedisService, db: DataSource) =>
        redis.client ? new RedisLoginThrottleStore(redis) : new PgLoginThrottleStore(db),
    },
    UsersStore,
    SignupsStore,
    SessionsService,
    AccountsService,
    SignupService,
  ],
  exports: [AccountsService, SessionsService, SignupService],
})
export class AccountsModule {}
